import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Controller, Get, Module, Req } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { allOf, APIKeyHeader, HttpBearer } from '../index.js';
import { PLATFORMS, startNest } from '../../test/helpers/nest.js';
import { Auth, authOf, Principal, VouchModule } from './index.js';

const bearer = new HttpBearer({ tokens: new Map([['good', { id: 7 }]]) });
const key = new APIKeyHeader({ paramName: 'X-Key', keys: new Map([['k', 'app']]) });

@Controller()
class Routes {
  @Get('bearer') bearer(@Principal(bearer) user: Principal<typeof bearer>) {
    return { id: user.id };
  }

  @Get('either') @Auth([key, bearer]) either(@Principal(bearer) user: Principal<typeof bearer>) {
    return { user };
  }

  @Get('both') @Auth(allOf(bearer, key)) both(
    @Principal(allOf(bearer, key)) values: unknown,
    @Principal() untyped: unknown,
  ) {
    return { values, untyped };
  }

  @Get('open') @Auth(null) open(@Principal() nothing: unknown, @Principal(null) none: unknown) {
    return { nothing: nothing ?? null, none: none ?? null };
  }

  @Get('request') request(@Req() request: object) {
    return { user: authOf(request, bearer), auth: (request as { auth?: unknown }).auth };
  }
}

@Module({
  imports: [VouchModule.forRoot({ auth: bearer, log: () => undefined })],
  controllers: [Routes],
})
class AppModule {}

for (const platform of PLATFORMS) {
  describe(`@Principal() and authOf() on Nest on ${platform}`, () => {
    const start = async (t: Parameters<typeof startNest>[0]) => {
      const seen: unknown[] = [];
      const { origin } = await startNest(t, platform, AppModule, {
        // Nest middleware receives Node's request.
        setup: (app) =>
          app.use((req: IncomingMessage, _res: ServerResponse, next: () => void) => {
            if (req.url === '/request') seen.push(authOf(req, bearer));
            next();
          }),
      });
      const get = async (path: string, headers: Record<string, string> = {}) => {
        const answer = await fetch(`${origin}${path}`, { headers });
        const body: unknown = await answer.json();
        return { status: answer.status, body };
      };
      return { get, seen };
    };
    const token = { authorization: 'Bearer good' };

    it("hand the handler the winner's value", async (t) => {
      const { get } = await start(t);
      assert.deepEqual(await get('/bearer', token), { status: 200, body: { id: 7 } });
      assert.deepEqual(await get('/both', { ...token, 'x-key': 'k' }), {
        status: 200,
        body: { values: [{ id: 7 }, 'app'], untyped: [{ id: 7 }, 'app'] },
      });
      assert.deepEqual(await get('/open', token), {
        status: 200,
        body: { nothing: null, none: null },
      });
    });

    it('read it from the request, on the platform and in middleware', async (t) => {
      const { get, seen } = await start(t);
      assert.deepEqual(await get('/request', token), {
        status: 200,
        body: { user: { id: 7 }, auth: { id: 7 } },
      });
      assert.deepEqual(seen, [{ id: 7 }]);
    });

    it('are a server fault where another authenticator won: a typed value is never a guess', async (t) => {
      const { get } = await start(t);
      assert.deepEqual(await get('/either', token), { status: 200, body: { user: { id: 7 } } });
      assert.deepEqual(await get('/either', { 'x-key': 'k' }), {
        status: 500,
        body: { detail: 'Internal Server Error' },
      });
    });
  });
}
