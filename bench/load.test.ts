// Proves that what `npm run bench` times is what it claims: every route of both apps answers 200
// and the shared body with its credential and 401 without it or with it spoilt; the check before
// timing catches a route that does not; a run with a single non-2xx answer is refused; and the
// schedule puts every run between baseline runs of its own server.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type autocannon from 'autocannon';
import { BODY, expressApp, fastifyApp, routes, type BenchRoute } from './apps.js';
import { fire, requireAll2xx, schedule, verify } from './load.js';

describe('the apps of npm run bench', () => {
  const ports = { fastify: 0, express: 0 };
  const closers: (() => unknown)[] = [];
  before(async () => {
    const fastify = await fastifyApp();
    closers.push(() => fastify.close());
    ports.fastify = Number(new URL(await fastify.listen({ host: '127.0.0.1', port: 0 })).port);
    const express = expressApp().listen(0, '127.0.0.1');
    closers.push(() => express.close());
    await new Promise((resolve) => express.once('listening', resolve));
    ports.express = (express.address() as AddressInfo).port;
  });
  after(async () => {
    for (const close of closers) await close();
  });

  for (const route of Object.values(routes) as BenchRoute[]) {
    it(`${route.server} ${route.path} (${route.label}) answers as timed, and refuses`, async () => {
      await verify(ports[route.server], route, BODY, route.credential);
    });
  }

  it('the check before timing catches a wrong answer, a wrong body and an open route', async () => {
    const port = ports.fastify;
    const { bearer, basic, fastify } = routes;
    await assert.rejects(verify(port, { ...bearer, headers: basic.headers }, BODY), /answered 401/);
    await assert.rejects(verify(port, bearer, '{"ok":false}'), /not 200/);
    await assert.rejects(verify(port, fastify, BODY, 'authorization'), /answered 200/);
  });

  it('refuses a load run with a single non-2xx answer', async () => {
    const shot = { ...routes.passport, headers: {} };
    const settings = { connections: 2, pipelining: 1 };
    await assert.rejects(fire(ports.express, shot, { requests: 20 }, settings), /not every/);
    const ok = { '2xx': 10, non2xx: 0, errors: 0, timeouts: 0, requests: { total: 10 } };
    const result = (changes: object) => ({ ...ok, ...changes }) as unknown as autocannon.Result;
    assert.doesNotThrow(() => requireAll2xx(result({}), 'x'));
    for (const changes of [{ non2xx: 1 }, { errors: 1 }, { timeouts: 1 }, { '2xx': 9 }]) {
      assert.throws(() => requireAll2xx(result(changes), '/x'), /\/x: not every response/);
    }
  });
});

describe('schedule', () => {
  const order = schedule(
    [
      ['F', 'a', 'b'],
      ['F', 'c', 'd'],
      ['E', 'e'],
    ],
    2,
  );

  it('runs each group baseline first, the pair reversed every other round, baselines last', () => {
    assert.deepEqual(
      order.map(({ item }) => item).join(''),
      ['FabFcdEe', 'FbaFdcEe', 'FE'].join(''),
    );
    assert.deepEqual(
      order.map(({ round }) => round),
      [...Array<number>(8).fill(1), ...Array<number>(10).fill(2)],
    );
  });

  it("puts every run between two runs of its own server's baseline", () => {
    const baselineOf = (group: number) => (group === 2 ? 'E' : 'F');
    for (const [i, { group, item }] of order.entries()) {
      const base = baselineOf(group);
      if (item === base) continue;
      assert.ok(
        order.slice(0, i).some((run) => run.item === base),
        `${item} at ${i}`,
      );
      assert.ok(
        order.slice(i + 1).some((run) => run.item === base),
        `${item} at ${i}`,
      );
    }
  });
});
