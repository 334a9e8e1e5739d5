// Proves that bench:service times the real service, started as `npm start` starts it: every route
// answers as timed with the credentials it issued, and refuses without them; each target sets an
// authenticated route against the baseline; the probe reports.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresDatabase, redisNamespace } from '../test/helpers/services.js';
import { verify } from './load.js';
import { launch, serviceTargets } from './service-process.js';

describe('service load bench', () => {
  it('over SQLite, every route answers as timed and refuses; the probe reports', async (t) => {
    const { service, shots, stop } = await launch('sqlite');
    t.after(stop);
    for (const shot of shots) await verify(service.port, shot);
    // Each target: an authenticated route against /api/version, which has nothing to check.
    for (const { first, second } of serviceTargets(shots)) {
      assert.deepEqual([first.credential !== undefined, second], [true, shots[0]]);
    }
    assert.equal(shots[0]?.path, '/api/version');
    const cpu = await service.cpu();
    assert.ok(cpu.user > 0 && cpu.system >= 0);
    const memory = await service.memory();
    assert.ok(memory.heapUsed > 0 && memory.rss > memory.heapUsed);
  });

  it('over PostgreSQL and Redis, every route answers as over SQLite', async (t) => {
    // Skips (or fails under CI=true) when the servers are unreachable.
    if ((await postgresDatabase(t)) === undefined || (await redisNamespace(t)) === undefined)
      return;
    const { service, env, shots, stop } = await launch('postgres+redis');
    t.after(stop);
    assert.match(env.DATABASE_URL ?? '', /^postgres:\/\/.*\/vouch_bench_/);
    assert.match(env.REDIS_KEY_PREFIX ?? '', /^vouch-bench:[0-9a-f]+:$/);
    for (const shot of shots) await verify(service.port, shot);
  });
});
