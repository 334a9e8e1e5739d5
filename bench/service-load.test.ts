// Proves that what the service load benchmark times is the real thing: the service started as
// `npm start` starts it, over a database made by its own CLI, answers every benchmarked route
// with 200 and the expected body given the real credential, and 401 without it; and the probe
// reports CPU and memory after a full collection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  seed,
  signIn,
  startService,
  workspace,
  type ServiceCredentials,
  type ServiceProcess,
  type Workspace,
} from './service-process.js';
import { postgresDatabase, redisDatabase } from '../test/helpers/services.js';
import { routesFor, serviceRoutes } from './service-routes.js';

describe('service load bench', () => {
  let space: Workspace | undefined;
  let service: ServiceProcess;
  let credentials: ServiceCredentials;

  before(async () => {
    space = await workspace();
    const { password, apiKey } = await seed(space.env);
    service = await startService(space.env);
    closers.push(() => service.close());
    credentials = { apiKey, ...(await signIn(service.port, password)) };
  });

  // Whatever was started is stopped, even when before() failed half-way.
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers) await close();
    await space?.remove();
  });

  it('compares the authenticated routes with the store-free baseline, with the issue’s targets', () => {
    assert.deepEqual(
      serviceRoutes.map((route) => [route.path, route.target]),
      [
        ['/api/version', null],
        ['/api/health', null],
        ['/api/bearer', 0.85],
        ['/api/headerkey', 0.85],
        ['/api/pets', 0.8],
      ],
    );
  });

  it('every timed request carries the same headers, every credential, the baseline too', () => {
    const [first, ...others] = serviceRoutes.map((route) => route.shot(credentials).headers);
    assert.deepEqual(Object.keys(first ?? {}).sort(), ['authorization', 'cookie', 'x-api-key']);
    for (const headers of others) assert.deepEqual(headers, first);
  });

  for (const route of serviceRoutes) {
    it(`${route.path} answers 200 with its credential and 401 without`, async () => {
      const shot = route.shot(credentials);
      const response = await fetch(`http://127.0.0.1:${service.port}${shot.path}`, {
        headers: shot.headers,
      });
      assert.equal(response.status, 200);
      assert.ok((await response.text()).includes(route.bodyIncludes));
      const refused = route.refused(credentials);
      if (refused === undefined) {
        assert.equal(route.target, null, 'every route with a target needs a credential');
        return;
      }
      const denied = await fetch(`http://127.0.0.1:${service.port}${refused.path}`, {
        headers: refused.headers,
      });
      assert.equal(denied.status, 401);
    });
  }

  it('the credentials are the service’s own: a token, a vk_ key and a session id', () => {
    assert.match(credentials.token, /^[A-Za-z0-9_-]{43}$/);
    assert.match(credentials.apiKey, /^vk_[A-Za-z0-9_-]{43}$/);
    assert.match(credentials.sessionId, /^[A-Za-z0-9_-]{43}$/);
  });

  it('the probe reports the service’s CPU time and its memory after a collection', async () => {
    const cpu = await service.cpu();
    assert.ok(cpu.user > 0 && cpu.system >= 0);
    const memory = await service.memory();
    assert.ok(memory.heapUsed > 0 && memory.heapUsed <= memory.heapTotal);
    assert.ok(memory.rss >= memory.heapTotal);
  });
});

describe('service load bench on PostgreSQL and Redis', () => {
  it('targets 0.8× on every authenticated route with the cache on, none with it off', () => {
    for (const store of ['postgres', 'postgres+redis'] as const) {
      assert.deepEqual(
        routesFor(store, false).map((route) => route.target),
        [null, null, 0.8, 0.8, 0.8],
      );
      assert.deepEqual(
        routesFor(store, true).map((route) => route.target),
        [null, null, null, null, null],
      );
    }
    assert.equal(routesFor('sqlite', false), serviceRoutes);
  });

  it('the service over a fresh database and Redis answers every route as over SQLite', async (t) => {
    // Skips (or fails under CI=true) when the servers are unreachable.
    if ((await postgresDatabase(t)) === undefined || (await redisDatabase(t)) === undefined) return;
    const space = await workspace('postgres+redis');
    t.after(() => space.remove());
    assert.match(space.env.DATABASE_URL ?? '', /^postgres:\/\/.*\/vouch_bench_/);
    assert.match(space.env.REDIS_URL ?? '', /^redis:\/\/.*\/1[345]$/);
    const { password, apiKey } = await seed(space.env);
    const service = await startService(space.env);
    t.after(() => service.close());
    const credentials = { apiKey, ...(await signIn(service.port, password)) };
    for (const route of routesFor('postgres+redis', false)) {
      const shot = route.shot(credentials);
      const response = await fetch(`http://127.0.0.1:${service.port}${shot.path}`, {
        headers: shot.headers,
      });
      assert.equal(response.status, 200, route.path);
      assert.ok((await response.text()).includes(route.bodyIncludes), route.path);
      const refused = route.refused(credentials);
      if (refused === undefined) continue;
      const denied = await fetch(`http://127.0.0.1:${service.port}${refused.path}`, {
        headers: refused.headers,
      });
      assert.equal(denied.status, 401, route.path);
    }
  });
});
