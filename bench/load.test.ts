// Proves that what `npm run bench` times is what it claims: every route answers as timed and
// refuses without its credential, a wrong answer or a non-2xx aborts, and the order of the runs.
import { serve } from '@hono/node-server';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { API_KEY, expressApp, fastifyApp, honoApp, routes } from './apps.js';
import { fire, schedule, verify } from './load.js';

describe('the apps of npm run bench', () => {
  const ports = { fastify: 0, express: 0, hono: 0 };
  const closers: (() => unknown)[] = [];
  before(async () => {
    const fastify = await fastifyApp();
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
  });
  after(async () => {
    for (const close of closers) await close();
  });

  for (const route of Object.values(routes)) {
    it(`${route.server} ${route.path} (${route.label}) answers as timed, and refuses`, async () => {
      await verify(ports[route.server], route);
    });
  }

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

  it('refuses a load run with a single non-2xx answer', async () => {
    const shot = { ...routes.passport, headers: {} };
    const settings = { connections: 2, pipelining: 1 };
    await assert.rejects(fire(ports.express, shot, { requests: 20 }, settings), /not every/);
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
