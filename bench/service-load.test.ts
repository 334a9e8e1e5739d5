// Proves that what bench:service times is the real thing: the service started as `npm start`
// starts it, over storage made by its own CLI, answers every route with 200 and its body given
// the real credentials, and 401 without its credential or with it spoilt; and it reports its CPU
// time and memory.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { postgresDatabase, redisDatabase } from '../test/helpers/services.js';
import { verify } from './load.js';
import { launch, serviceRoutes, shotOf, type BenchStore } from './service-process.js';

/** The service over fresh `store`, stopped when the test ends. */
async function started(t: TestContext, store: BenchStore) {
  const launched = await launch(store);
  t.after(launched.stop);
  return launched;
}

describe('service load bench', () => {
  it('over SQLite, every route answers as timed and refuses; the probe reports', async (t) => {
    const { service, credentials } = await started(t, 'sqlite');
    assert.match(credentials.token, /^[A-Za-z0-9_-]{43}$/);
    assert.match(credentials.apiKey, /^vk_[A-Za-z0-9_-]{43}$/);
    assert.match(credentials.sessionId, /^[A-Za-z0-9_-]{43}$/);
    for (const route of serviceRoutes) {
      await verify(service.port, shotOf(route, credentials), route.body, route.credential);
    }
    const cpu = await service.cpu();
    assert.ok(cpu.user > 0 && cpu.system >= 0);
    const memory = await service.memory();
    assert.ok(memory.heapUsed > 0 && memory.rss > memory.heapUsed);
  });

  it('over PostgreSQL and Redis, every route answers as over SQLite', async (t) => {
    // Skips (or fails under CI=true) when the servers are unreachable.
    if ((await postgresDatabase(t)) === undefined || (await redisDatabase(t)) === undefined) return;
    const { service, env, credentials } = await started(t, 'postgres+redis');
    assert.match(env.DATABASE_URL ?? '', /^postgres:\/\/.*\/vouch_bench_/);
    assert.match(env.REDIS_URL ?? '', /^redis:\/\/.*\/1[345]$/);
    for (const route of serviceRoutes) {
      await verify(service.port, shotOf(route, credentials), route.body, route.credential);
    }
  });
});
