// A refusal that names its reason and headers for the 401 (a DPoP nonce, RFC 9449 §8): every
// engine writes them, whether vouch answers at once or a later hook threw and an error handler
// (vouch's, or the engine's own) answers. Only a 401 carries them.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { serve } from '@hono/node-server';
import { Controller, Get, Module } from '@nestjs/common';
import express from 'express';
import { Hono } from 'hono';
import * as vouchExpress from '../../src/express/index.js';
import * as vouchHono from '../../src/hono/index.js';
import { Auth, VouchModule } from '../../src/nestjs/index.js';
import {
  AuthenticationError,
  Authenticator,
  authFunction,
  refusal,
  StoreUnavailableError,
  type AuthSpec,
  type Outcome,
} from '../../src/index.js';
import { build } from '../helpers/build.js';
import { PLATFORMS, startNest } from '../helpers/nest.js';

/** Refuses every request with `use_nonce` and a nonce for the client to retry with. */
class Nonced extends Authenticator<string> {
  constructor() {
    super('nonced');
  }
  override get securityScheme(): undefined {
    return undefined;
  }
  override challenge(realm: string, _rejected: boolean, _scopes?: unknown, error?: string) {
    return `Nonce realm="${realm}", error="${String(error)}"`;
  }
  override verify(): Outcome<string> {
    return refusal('use_nonce', { 'x-nonce': 'n1' });
  }
}

const nonced = new Nonced();
const expired = authFunction(() => {
  throw new AuthenticationError('Token expired');
});
const down = authFunction(() => {
  throw new StoreUnavailableError();
});
/** Route → its auth, and what it answers: status, detail, whether the nonce is sent. */
const ROUTES = [
  ['/refused', nonced, 401, 'Unauthorized', true],
  ['/thrown', [nonced, expired], 401, 'Token expired', true],
  ['/down', [nonced, down], 503, 'Service Unavailable', false],
] as const satisfies readonly [string, AuthSpec, number, string, boolean][];
const CHALLENGE = 'Nonce realm="api", error="use_nonce"';

type Start = (t: TestContext, errorHandler: boolean) => Promise<string>;

const ENGINES: Readonly<Record<string, Start>> = {
  async fastify(t, errorHandler) {
    const app = await build(t, { csrf: false, errorHandler });
    for (const [path, auth] of ROUTES) app.get(path, { auth }, async () => ({}));
    return app.listen({ port: 0, host: '127.0.0.1' });
  },
  async hono(t, errorHandler) {
    const app = new Hono();
    if (errorHandler) app.onError(vouchHono.vouchErrorHandler());
    for (const [path, auth] of ROUTES)
      app.get(path, vouchHono.requireAuth(auth), (c) => c.json({}));
    return listen(t, serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server);
  },
  async express(t, errorHandler) {
    const app = express();
    app.set('env', 'test'); // Express's final handler logs nothing
    for (const [path, auth] of ROUTES) {
      app.get(path, vouchExpress.requireAuth(auth), (_req, res) => res.json({}));
    }
    if (errorHandler) app.use(vouchExpress.vouchErrorHandler({ log: () => undefined }));
    return listen(t, createServer(app).listen(0, '127.0.0.1'));
  },
};

@Controller()
class NestRoutes {
  @Get('refused') @Auth(ROUTES[0][1]) refused() {
    return {};
  }
  @Get('thrown') @Auth(ROUTES[1][1]) thrown() {
    return {};
  }
  @Get('down') @Auth(ROUTES[2][1]) down() {
    return {};
  }
}

@Module({
  imports: [VouchModule.forRoot({ auth: null, log: () => undefined })],
  controllers: [NestRoutes],
})
class NestApp {}

async function listen(t: TestContext, server: Server): Promise<string> {
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', resolve));
  t.after(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Nest answers through its exception layer, vouch's filter included: one way on each platform. */
const NEST: Readonly<Record<string, Start>> = Object.fromEntries(
  PLATFORMS.map((platform) => [
    `nest on ${platform}`,
    async (t: TestContext) => (await startNest(t, platform, NestApp)).origin,
  ]),
);

describe('headers a refusal names for its 401', () => {
  for (const [engine, start] of [...Object.entries(ENGINES), ...Object.entries(NEST)]) {
    for (const errorHandler of engine.startsWith('nest') ? [true] : [true, false]) {
      it(`${engine}, ${errorHandler ? "vouch's" : "the engine's own"} error handler`, async (t) => {
        // A store outage is logged, by default to the console.
        t.mock.method(console, 'error', () => undefined);
        const origin = await start(t, errorHandler);
        for (const [path, , status, detail, nonce] of ROUTES) {
          const response = await fetch(origin + path);
          assert.equal(response.status, status, path);
          assert.equal(response.headers.get('x-nonce'), nonce ? 'n1' : null, path);
          if (status !== 401) continue;
          assert.equal(response.headers.get('www-authenticate'), CHALLENGE, path);
          // The engines' own handlers answer with pages of their own; vouch's with its detail.
          if (errorHandler || path === '/refused') {
            assert.deepEqual(await response.json(), { detail }, path);
          }
        }
      });
    }
  }
});
