// Proves that bench:service times the real service, started as `npm start` starts it: every route
// answers as timed with the credentials it issued, and refuses without them; each target sets an
// authenticated route against the baseline; the probe reports.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresDatabase, redisNamespace } from '../test/helpers/services.js';
import { verify } from './load.js';
import { launch, launchBare, serviceTargets, steadyClient } from './service-process.js';

describe('service load bench', () => {
  it('over SQLite, every route answers as timed and refuses; the probe reports', async (t) => {
    const { service, shots, stop } = await launch('sqlite');
    t.after(stop);
    const bare = await launchBare();
    t.after(() => bare.server.close());
    for (const shot of shots) await verify(service.port, shot);
    await verify(bare.server.port, bare.shot);
    // Basic answers from memory after its first check: a second round is still 200, never 503.
    await verify(
      service.port,
      shots.find((shot) => shot.path === '/api/basic')!,
    );
    const [version] = shots;
    assert.equal(version?.path, '/api/version');
    const bearer = shots.find((shot) => shot.path === '/api/bearer');
    // Each authenticated route against /api/version, which has nothing to check; Basic against
    // Bearer; /api/version against the same route on bare Fastify.
    const pairs = serviceTargets(shots, bare.shot).map(({ first, second }) => [first, second]);
    assert.deepEqual(pairs, [
      ...['/api/bearer', '/api/headerkey', '/api/pets'].map((path) => [
        shots.find((shot) => shot.path === path),
        version,
      ]),
      [shots.find((shot) => shot.path === '/api/basic'), bearer],
      [version, bare.shot],
    ]);
    const bareAnswer = await fetch(`http://127.0.0.1:${bare.server.port}/api/version`);
    const serviceAnswer = await fetch(`http://127.0.0.1:${service.port}/api/version`);
    assert.equal(await bareAnswer.text(), await serviceAnswer.text(), 'the same answer');
    const cpu = await service.cpu();
    assert.ok(cpu.user > 0 && cpu.system >= 0);
    const memory = await service.memory();
    assert.ok(memory.heapUsed > 0 && memory.rss > memory.heapUsed);
    // The steady client sends Basic at its pace and counts what is not answered 200.
    const basic = shots.find((shot) => shot.path === '/api/basic')!;
    const steady = steadyClient(service.port, basic, 50);
    const spoilt = steadyClient(
      service.port,
      { ...basic, headers: { ...basic.headers, authorization: 'Basic YmVuY2g6d3Jvbmc=' } },
      50,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [right, wrong] = [await steady.stop(), await spoilt.stop()];
    assert.ok(right.sent >= 3 && right.failed === 0, JSON.stringify(right));
    assert.ok(wrong.sent >= 1 && wrong.failed === wrong.sent, JSON.stringify(wrong));
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
