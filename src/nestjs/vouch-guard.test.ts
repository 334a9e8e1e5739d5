import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { Controller, Get, HttpCode, Module, Next, Post } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { HttpBasic, HttpBearer } from '../index.js';
import { MemorySessionStore, SessionAuth } from '../session/index.js';
import { adapterOf, createNest, KeptLogs, PLATFORMS, startNest } from '../../test/helpers/nest.js';
import { Auth, Principal, Vouch, VouchModule } from './index.js';
import { VouchGuard } from './vouch-guard.js';

const bearer = new HttpBearer({ tokens: new Map([['good', 'ann']]) });
const basic = new HttpBasic({
  authenticate: (_r, user, pass) => (pass === 'pw' ? user : undefined),
});
const store = new MemorySessionStore<{ user: string }>();
const session = new SessionAuth({ store });
const sam = await store.create({ user: 'sam' });

@Controller()
class Routes {
  @Get('private') private(@Principal() auth: unknown) {
    return { auth };
  }

  @Get('session') @Auth(session) session(@Principal() auth: unknown) {
    return { auth };
  }

  @Post('session') @HttpCode(200) @Auth(session) post(@Principal() auth: unknown) {
    return { auth };
  }
}

@Module({
  imports: [
    VouchModule.forRoot({
      auth: bearer,
      csrf: { secret: 'a guard test secret', trustedOrigins: ['https://app.example'] },
    }),
  ],
  controllers: [Routes],
})
class AppModule {}

const get = (origin: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}${path}`, { headers });

for (const platform of PLATFORMS) {
  describe(`the guard on Nest on ${platform}, where the request hook did not run`, () => {
    it('authenticates every route itself, late, saying so once', async (t) => {
      const logs = new KeptLogs();
      const app = await createNest(AppModule, adapterOf(platform), logs);
      t.after(() => app.close());
      await app.init();
      // Another library's hook, put in place of vouch's.
      app
        .get(HttpAdapterHost)
        .httpAdapter.setOnRequestHook((_req: unknown, _res: unknown, done: () => void) => {
          done();
        });
      await app.listen(0, '127.0.0.1');
      const origin = await app.getUrl();

      const denied = await get(origin, '/private');
      assert.equal(denied.status, 401);
      assert.equal(denied.headers.get('www-authenticate'), 'Bearer realm="api"');
      assert.deepEqual(await denied.json(), { detail: 'Unauthorized' });
      assert.deepEqual(
        await (await get(origin, '/private', { authorization: 'Bearer good' })).json(),
        {
          auth: 'ann',
        },
      );
      // A session's store answers asynchronously.
      const cookie = { cookie: `sessionid=${sam}` };
      assert.deepEqual(await (await get(origin, '/session', cookie)).json(), {
        auth: { user: 'sam' },
      });
      // A form post's CSRF token is read from its body.
      const form = (token: string) =>
        fetch(`${origin}/session`, {
          method: 'POST',
          headers: {
            ...cookie,
            cookie: `sessionid=${sam}; csrftoken=${token}`,
            origin: 'https://app.example',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: `csrfmiddlewaretoken=${encodeURIComponent(token)}`,
        });
      const issued = app.get(Vouch).csrfProtection?.issue(sam).token ?? '';
      assert.equal((await form(issued)).status, 200);
      const forged = await form('forged');
      assert.equal(forged.status, 403);
      assert.deepEqual(await forged.json(), { detail: 'CSRF check Failed' });

      const warnings = logs.lines.filter((line) => line.startsWith('warn'));
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(
        warnings[0] ?? '',
        /Routes\.private was authenticated by vouch's guard, after the request's body was read/,
      );
    });
  });
}

describe('the guard on Nest on Express, where a handler hands the request on', () => {
  @Controller('open-first')
  class OpenFirst {
    @Get() @Auth(null) first(@Next() next: () => void) {
      next();
    }
  }
  @Controller('open-first')
  class ThenBasic {
    @Get() @Auth(basic) next(@Principal() auth: unknown) {
      return { auth };
    }
  }
  @Controller('bearer-first')
  class BearerFirst {
    @Get() first(@Next() next: () => void) {
      next();
    }
  }
  @Controller('bearer-first')
  class ThenOpen {
    @Get() @Auth(null) next(@Principal() auth: unknown) {
      return { auth: auth ?? null };
    }
  }
  @Module({
    imports: [VouchModule.forRoot({ auth: bearer })],
    controllers: [OpenFirst, ThenBasic, BearerFirst, ThenOpen],
  })
  class HandingOn {}

  it("requires the next route's own authentication, not the first's", async (t) => {
    const logs = new KeptLogs();
    const { origin } = await startNest(t, 'express', HandingOn, { logger: logs });
    const denied = await get(origin, '/open-first');
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('www-authenticate'), 'Basic realm="api", charset="UTF-8"');
    const basicAuth = { authorization: `Basic ${btoa('ann:pw')}` };
    assert.deepEqual(await (await get(origin, '/open-first', basicAuth)).json(), { auth: 'ann' });
    // What the first route's declaration authenticated is not the next route's.
    const handed = await get(origin, '/bearer-first', { authorization: 'Bearer good' });
    assert.deepEqual(await handed.json(), { auth: null });
    assert.deepEqual(logs.lines, [], 'the hook ran: nothing to warn of');
  });

  it('authenticates a request whose target the hook cannot read (absolute form)', async (t) => {
    const { app, origin } = await startNest(t, 'express', AppModule);
    const { port } = new URL(origin);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      // The request line names the whole URL, as it does to a proxy.
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, path: `${origin}/private` },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    assert.equal(status, 401);
    assert.ok(app.get(Vouch));
  });
});

describe('VouchGuard', () => {
  it('lets through what is not an HTTP request (a message, an event)', async (t) => {
    const { app } = await startNest(t, 'express', AppModule);
    const guard = new VouchGuard(app.get(Vouch), app.get(HttpAdapterHost));
    const context = new ExecutionContextHost([{}, {}]);
    context.setType('rpc');
    assert.equal(guard.canActivate(context), true);
  });
});
