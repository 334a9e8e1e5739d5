import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { All, Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { HttpBearer } from '../index.js';
import { nestMajor, PLATFORMS, startNest } from '../../test/helpers/nest.js';
import { VouchModule } from './index.js';

const bearer = new HttpBearer({ tokens: new Map([['good', 'ann']]) });

@Controller()
class Routes {
  @Post('pets') @HttpCode(200) create(@Body() body: unknown) {
    return { body };
  }

  @Post('pets/:id/photos') @HttpCode(200) photo(@Body() body: unknown) {
    return { body };
  }

  @All('any') any() {}

  @All('any/:id') anyOne() {}
}

@Module({ imports: [VouchModule.forRoot({ auth: bearer })], controllers: [Routes] })
class AppModule {}

/**
 * Sends a request whose body announces far more bytes than it carries, and never sends the rest:
 * resolves with the status line of the answer, if one comes while the body is still unfinished.
 */
function stalledPost(
  origin: string,
  headers: string,
  path = '/pets',
  waitMs = 5000,
): Promise<string> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n${headers}\r\n{"name":`,
      );
    });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (data.includes('\r\n')) {
        socket.destroy();
        resolve(data.slice(0, data.indexOf('\r\n')));
      }
    });
    socket.on('error', reject);
    socket.setTimeout(waitMs, () => {
      socket.destroy();
      resolve('no answer while the body was unfinished');
    });
  });
}

for (const platform of PLATFORMS) {
  describe(`the request hook on Nest on ${platform}`, () => {
    it('refuses a request before reading its body, which is never finished', async (t) => {
      const { origin } = await startNest(t, platform, AppModule);
      assert.equal(await stalledPost(origin, ''), 'HTTP/1.1 401 Unauthorized');
      // A route with a parameter, which Fastify gets wrapped.
      assert.equal(await stalledPost(origin, '', '/pets/7/photos'), 'HTTP/1.1 401 Unauthorized');
      // A route of every method, which Nest 11 gives Fastify without its config.
      assert.equal(await stalledPost(origin, '', '/any'), 'HTTP/1.1 401 Unauthorized');
      // Authenticated, the same request waits for its body, as the parser must.
      // A refusal may take seconds on a busy machine; waiting, 300 ms of silence is enough.
      assert.equal(
        await stalledPost(origin, 'authorization: Bearer good\r\n', '/pets', 300),
        'no answer while the body was unfinished',
      );
    });

    it(
      'so does a route of every method with a parameter',
      {
        skip:
          platform === 'fastify' &&
          nestMajor('platform-fastify') < 12 &&
          "Nest 11's FastifyAdapter gives Fastify such a route under a wrapper of its handler, without its config: vouch's guard authenticates it, after the body",
      },
      async (t) => {
        const { origin } = await startNest(t, platform, AppModule);
        assert.equal(await stalledPost(origin, '', '/any/7'), 'HTTP/1.1 401 Unauthorized');
      },
    );

    it("leaves alone what no controller's route serves: the platform's own routes, a 404", async (t) => {
      const { origin } = await startNest(t, platform, AppModule, {
        setup: (app) => {
          const adapter = app.getHttpAdapter();
          adapter.get('/platform', (_request: unknown, response: unknown) => {
            adapter.reply(response, { served: 'by the platform' }, 200);
          });
        },
      });
      const platformRoute = await fetch(`${origin}/platform`);
      assert.deepEqual(await platformRoute.json(), { served: 'by the platform' });
      assert.equal((await fetch(`${origin}/nowhere`)).status, 404);
      const body = JSON.stringify({ name: 'rex' });
      const created = await fetch(`${origin}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
        body,
      });
      assert.deepEqual(await created.json(), { body: { name: 'rex' } });
    });
  });
}
