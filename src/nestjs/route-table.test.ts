import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Controller, Get, Module, Post, type Type } from '@nestjs/common';
import { createNest } from '../../test/helpers/nest.js';
import { ExpressAdapter } from '@nestjs/platform-express';
import { APIKeyCookie, APIKeyHeader, HttpBasic, HttpBearer, type AuthSpec } from '../index.js';
import { Auth, VouchModule, type VouchModuleOptions } from './index.js';

const bearer = new HttpBearer({ tokens: new Map([['t', 'ann']]) });
const basic = new HttpBasic({ authenticate: () => undefined });
const cookie = new APIKeyCookie({ paramName: 'key', keys: new Map([['k', 'app']]) });

/** Creates an application of `controllers` under VouchModule.forRoot(`options`). */
async function create(options: VouchModuleOptions, ...controllers: Type[]): Promise<void> {
  @Module({ imports: [VouchModule.forRoot(options)], controllers })
  class AppModule {}
  const app = await createNest(AppModule, new ExpressAdapter());
  await app.init();
  await app.close();
}

/** An API key in a header, documented under the scheme name `key`. */
const keyed = (paramName: string) =>
  new APIKeyHeader({ name: 'key', paramName, keys: new Map([['k', 'app']]) });

@Controller('plain')
class Plain {
  @Get() list() {}
}

/** A controller whose one POST route (`Pets.create`) declares `auth`. */
function withAuth(auth: AuthSpec, options = {}): Type {
  @Controller('pets')
  class Pets {
    @Post() @Auth(auth, options) create() {}
  }
  return Pets;
}

describe('VouchModule: what stops the application at start-up, naming the route', () => {
  const cases: [string, () => Promise<void>, RegExp][] = [
    [
      'a cookie credential on an unsafe route without CSRF protection',
      () => create({}, withAuth(cookie)),
      /^Pets\.create: cookie-based authentication needs CSRF protection; give VouchModule\.forRoot\(\{ csrf: \{ secret, trustedOrigins \} \}\)/,
    ],
    [
      'an empty list',
      () => create({}, withAuth([])),
      /^Pets\.create: auth is an empty list; use auth: null/,
    ],
    [
      'an unknown value',
      () => create({}, withAuth('bearer' as unknown as AuthSpec)),
      /^Pets\.create: auth has an unknown value \(string\)/,
    ],
    [
      'scopes without authentication',
      () => create({}, withAuth(null, { scopes: ['pets:write'] })),
      /^Pets\.create: scopes need authentication/,
    ],
    [
      'a scope that is no scope-token',
      () => create({}, withAuth(bearer, { scopes: ['a b'] })),
      /^Pets\.create: scope "a b" is not an RFC 6749 scope-token/,
    ],
    [
      'the module-wide auth, named by a route it covers',
      () => create({ auth: [] }, Plain),
      /^Plain\.list: auth is an empty list/,
    ],
    ['a realm with a line break', () => create({ realm: 'a\nb' }), /realm/],
    [
      'two schemes under one name',
      () => create({ auth: keyed('X-A') }, Plain, withAuth(keyed('X-B'))),
      /^Pets\.create: security scheme name "key" is already used by a different scheme at Plain\.list/,
    ],
  ];
  for (const [name, start, message] of cases) {
    it(name, async () => {
      await assert.rejects(start, { code: 'VOUCH_ERR_CONFIGURATION', message });
    });
  }

  it('a handler two controllers inherit, when they require different authentication', async () => {
    class Crud {
      @Get() list() {}
    }
    @Controller('a')
    @Auth(bearer)
    class A extends Crud {}
    @Controller('b')
    @Auth(basic)
    class B extends Crud {}
    await assert.rejects(() => create({}, A, B), {
      code: 'VOUCH_ERR_CONFIGURATION',
      message: /^B\.list and A\.list share one handler but require different authentication/,
    });
  });

  it('starts where they require the same, or the handler declares it', async () => {
    class Crud {
      @Get() list() {}
      @Get('one') @Auth(basic) one() {}
    }
    @Controller('a')
    @Auth(bearer, { scopes: ['x'] })
    class A extends Crud {}
    @Controller('b')
    @Auth(bearer, { scopes: ['x'] })
    class B extends Crud {}
    @Controller('c')
    class C extends Crud {}
    @Controller('d')
    class D extends Crud {}
    await create({}, A, B);
    await create({ auth: bearer }, C, D);
  });

  it('csrf: false turns the check off, and starts', async () => {
    await create({ csrf: false }, withAuth(cookie));
    await create({}, withAuth(cookie, { csrf: false }));
  });
});
