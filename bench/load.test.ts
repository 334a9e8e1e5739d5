// Proves that what `npm run bench` times is what it claims: every route answers as timed and
// refuses without its credential (the Nest apps' on both platforms too), the OAuth routes with
// the tokens of the bench's authorization server, the DPoP route with a proof of the pool a
// request (through wrk and through autocannon), a wrong answer or a non-2xx aborts, every target
// compares routes of one server, the order of the runs, and what is timed in process each round.
import { serve } from '@hono/node-server';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Vouch } from '../src/nestjs/vouch.js';
import { JWT_RESOURCE, OPAQUE_RESOURCE } from '../test/helpers/authorization-server.js';
import {
  API_KEY,
  dpopCostTargets,
  dpopUrl,
  expressApp,
  fastifyApp,
  honoApp,
  oauthRoutes,
  oauthSettings,
  oauthTargets,
  routes,
  targets,
  type OAuthRoutes,
} from './apps.js';
import { proofPool } from './dpop-proofs.js';
import { fire, rounds, schedule, verify, type Generator } from './load.js';
import { nestListener } from './nest-apps.js';
import { startTokenIssuer, type TokenIssuer } from './token-issuer.js';
import { wrkVersion } from './wrk.js';

/** Both load generators; wrk's tests skip where it is not on PATH. */
const generators = ['wrk', 'autocannon'] as const;
const skipOf = (generator: Generator) =>
  generator === 'wrk' && wrkVersion() === undefined ? 'wrk is not on PATH' : false;

describe('the apps of npm run bench', () => {
  const ports = { fastify: 0, express: 0, hono: 0, nest: 0, nestFastify: 0 };
  const closers: (() => unknown)[] = [];
  let issuer: TokenIssuer;
  let oauth: OAuthRoutes;
  before(async () => {
    issuer = await startTokenIssuer();
    closers.push(() => issuer.close());
    issuer.proofs.add(1000);
    oauth = oauthRoutes(issuer.tokens, issuer.proofs);
    // As the Fastify process gets them: from its environment.
    const fastify = await fastifyApp(oauthSettings(issuer.env));
    closers.push(() => fastify.close());
    ports.fastify = Number(new URL(await fastify.listen({ host: '127.0.0.1', port: 0 })).port);
    const express = expressApp().listen(0, '127.0.0.1');
    closers.push(() => express.close());
    await new Promise((resolve) => express.once('listening', resolve));
    ports.express = (express.address() as AddressInfo).port;
    await new Promise<void>((resolve) => {
      const hono = serve({ fetch: honoApp().fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
        ports.hono = info.port;
        resolve();
      });
      closers.push(() => hono.close());
    });
    for (const [name, platform] of [
      ['nest', 'express'],
      ['nestFastify', 'fastify'],
    ] as const) {
      const nest = await nestListener(platform);
      const server = createServer(nest.listener).listen(0, '127.0.0.1');
      closers.push(() => new Promise((resolve) => server.close(resolve)), nest.close);
      await once(server, 'listening');
      ports[name] = (server.address() as AddressInfo).port;
    }
  });
  after(async () => {
    for (const close of closers) await close();
  });

  for (const route of Object.values(routes)) {
    it(`${route.server} ${route.path} (${route.label}) answers as timed, and refuses`, async () => {
      await verify(ports[route.server], route);
    });
  }

  for (const name of ['jwt', 'jwtResource', 'introspection', 'dpop', 'dpopBearer'] as const) {
    it(`fastify, the OAuth route ${name}: answers as timed with its token, and refuses`, async () => {
      await verify(ports.fastify, oauth[name]);
    });
  }

  const status = async (path: string, token: string) => {
    const headers = { authorization: `Bearer ${token}` };
    return (await fetch(`http://127.0.0.1:${ports.fastify}${path}`, { headers })).status;
  };

  it('RFC 9068 §4: the protected resource refuses what JwtBearer of before accepts', async () => {
    const as = issuer.authorizationServer;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: as.issuer,
      sub: 'service',
      client_id: 'service',
      iat: now,
      exp: now + 60,
    };
    const offProfile = [
      await as.forge({ ...claims, aud: JWT_RESOURCE }, { typ: 'JWT' }),
      await as.forge({ ...claims, aud: [JWT_RESOURCE, 'https://other.test/'] }),
      await as.forge({ ...claims, aud: JWT_RESOURCE, client_id: undefined }),
    ];
    for (const token of offProfile) {
      assert.equal(await status(oauth.jwt.path, token), 200);
      assert.equal(await status(oauth.jwtResource.path, token), 401);
    }
  });

  it('the introspection route asks once for a token, then answers its load from the cache', async () => {
    const as = issuer.authorizationServer;
    const token = (await as.clientCredentialsToken({ resource: OPAQUE_RESOURCE })).access_token;
    const asked = issuer.introspections();
    assert.equal(await status(oauth.introspection.path, token), 200);
    assert.equal(issuer.introspections(), asked + 1);
    const shot = { ...oauth.introspection, headers: { authorization: `Bearer ${token}` } };
    await fire(ports.fastify, shot, { requests: 200 }, { connections: 10, pipelining: 1 });
    assert.equal(issuer.introspections(), asked + 1);
  });

  for (const generator of generators) {
    const skip = { skip: skipOf(generator) };
    const settings = (connections: number) => ({ connections, pipelining: 1, generator });

    it(`${generator}: the DPoP route takes a proof a request, none twice`, skip, async () => {
      const taken = issuer.proofs.taken;
      for (const run of [1, 2]) {
        const fired = await fire(ports.fastify, oauth.dpop, { requests: 200 }, settings(10));
        assert.deepEqual([fired.requests, issuer.proofs.taken], [200, taken + 200 * run]);
      }
    });

    it(`${generator}: a run aborts once the pool of proofs is spent`, skip, async (t) => {
      const { dpop, dpopKey } = issuer.tokens;
      const few = proofPool(dpopKey, { htu: dpopUrl(JWT_RESOURCE), token: dpop });
      t.after(() => {
        few.close();
      });
      few.add(5);
      const shot = oauthRoutes(issuer.tokens, few).dpop;
      await assert.rejects(fire(ports.fastify, shot, { requests: 20 }, settings(2)), /not every/);
      assert.equal(few.left, 0);
    });

    it(`${generator}: refuses a load run with a single non-2xx answer`, skip, async () => {
      const shot = { ...routes.passport, headers: {} };
      await assert.rejects(fire(ports.express, shot, { requests: 20 }, settings(2)), /not every/);
    });
  }

  it('the DPoP route refuses a proof sent twice, and the DPoP-bound token as Bearer', async () => {
    const { path, headers } = oauth.dpop;
    const proof = issuer.proofs.next()!;
    const send = (sent: Record<string, string>) =>
      fetch(`http://127.0.0.1:${ports.fastify}${path}`, { headers: sent }).then((r) => r.status);
    assert.equal(await send({ ...headers, dpop: proof }), 200);
    assert.equal(await send({ ...headers, dpop: proof }), 401);
    assert.equal(await status(path, issuer.tokens.dpop), 401);
  });

  it('the check before timing catches a wrong answer, a wrong body and an open route', async () => {
    const port = ports.fastify;
    const { bearer, basic, fastify } = routes;
    await assert.rejects(verify(port, { ...bearer, headers: basic.headers }), /answered 401/);
    await assert.rejects(verify(port, { ...bearer, body: '{"ok":false}' }), /not 200/);
    await assert.rejects(verify(port, { ...fastify, credential: 'authorization' }), /answered 200/);
  });

  it("in Express's app of 45 routes, the route's declaration decides, not the app's", async () => {
    const get = (path: string) =>
      fetch(`http://127.0.0.1:${ports.express}${path}`, { headers: { 'x-client-key': API_KEY } });
    assert.equal((await get('/api/users/7')).status, 200);
    assert.equal((await get(routes.express45Bearer.path)).status, 401);
  });

  it("Nest: vouch decides in the platform's request hook, not late in its guard", async (t) => {
    // The guard authenticates only where the hook did not, and says so: served through our own
    // listener, each app must still run the hook an app listening itself runs.
    const late = t.mock.method(Vouch.prototype, 'warnLate');
    for (const route of [routes.nestBearer, routes.nestFastifyBearer]) {
      await verify(ports[route.server], route);
    }
    assert.equal(late.mock.callCount(), 0);
  });

  it('times something in this process before the first run of each round, when asked', async () => {
    const events: string[] = [];
    const server = {
      port: ports.fastify,
      cpu: async () => {
        events.push('cpu');
        return process.cpuUsage();
      },
    };
    const groups = [{ server, shots: [routes.fastify, routes.bearer] as const }];
    const load = { connections: 2, pipelining: 1, generator: 'autocannon' as const };
    const runs = await rounds(groups, { ...load, rounds: 2, seconds: 0.2, warmup: 0 }, (round) => {
      events.push(`round ${round}`);
    });
    // Each run reads the server's CPU before and after; the last round ends on its baseline.
    const run = 'cpu cpu';
    assert.equal(events.join(' '), `round 1 ${run} ${run} round 2 ${run} ${run} ${run}`);
    assert.deepEqual(
      runs.map(({ round }) => round),
      [1, 1, 2, 2, 2],
    );
  });

  it('every target compares two routes of one server: a ratio across engines measures them', () => {
    for (const { first, second } of [
      ...targets,
      ...oauthTargets(oauth),
      ...dpopCostTargets(oauth),
    ]) {
      assert.equal(first.server, second.server, `${first.label} ÷ ${second.label}`);
    }
  });
});

describe('schedule', () => {
  const groups = [
    ['F', 'a', 'b'],
    ['F', 'c', 'd'],
    ['E', 'e'],
  ] as const;

  it('runs each group baseline first, the pair reversed every other round, baselines last', () => {
    const order = schedule(groups, 2);
    assert.equal(order.map(({ item }) => item).join(''), ['FabFcdEe', 'FbaFdcEe', 'FE'].join(''));
    assert.equal(order.map(({ round }) => round).join(''), '1'.repeat(8) + '2'.repeat(10));
  });
});
