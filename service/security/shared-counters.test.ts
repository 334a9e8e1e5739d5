// Failed sign-ins counted where every instance sees them: two limiters stand for two instances,
// over a real Redis or a real PostgreSQL database.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { openRedis } from '../redis/open-redis.js';
import { migratePostgres } from '../store/postgres/migrate.js';
import { openPool } from '../store/postgres/open-pool.js';
import { postgresDatabase, redisNamespace } from '../../test/helpers/services.js';
import { tcpProxy } from '../../test/helpers/tcp-proxy.js';
import { until } from '../../test/helpers/wait.js';
import {
  countInPostgres,
  countInRedis,
  createFailureLimiter,
  type CounterStore,
  type FailureLimiter,
} from './rate-limit.js';

/** Counters over a fresh backend, or `undefined` when the test was skipped. */
const backends: Record<string, (t: TestContext) => Promise<CounterStore | undefined>> = {
  Redis: async (t) => {
    const namespace = await redisNamespace(t);
    if (namespace === undefined) return undefined;
    const redis = await openRedis(namespace.url, { keyPrefix: namespace.keyPrefix });
    t.after(() => redis.close());
    return countInRedis(redis);
  },
  PostgreSQL: async (t) => {
    const database = await postgresDatabase(t);
    if (database === undefined) return undefined;
    const pool = openPool(database.url, { maxConnections: 2 });
    t.after(() => pool.end());
    await migratePostgres(pool);
    return countInPostgres(pool);
  },
};

/** Checks and fails one attempt; whether it was allowed. */
async function failOnce(limiter: FailureLimiter, address: string, username: string) {
  const verdict = await limiter.check({ address, username });
  if (verdict.allowed) await limiter.fail({ address, username });
  return verdict;
}

/** A limiter whose only tight limit is `attempts` failures per username (from anywhere). */
const perUsername = (attempts: number, store: CounterStore) =>
  createFailureLimiter({ perUsername: { attempts, windowSeconds: 900 } }, store);

for (const [name, counters] of Object.entries(backends)) {
  describe(`failed sign-ins counted in ${name}`, () => {
    it('attempts on any instance count toward one limit', async (t) => {
      const store = await counters(t);
      if (store === undefined) return;
      const instances = [perUsername(10, store), perUsername(10, store)];
      for (let i = 0; i < 10; i++) {
        const verdict = await failOnce(instances[i % 2]!, `10.0.0.${i}`, 'alice');
        assert.deepEqual(verdict, { allowed: true }, `attempt ${i + 1}`);
      }
      for (const instance of instances) {
        const verdict = await instance.check({ address: '192.0.2.7', username: 'alice' });
        assert.ok(!verdict.allowed, 'refused');
        assert.ok(verdict.retryAfterSeconds > 14 * 60);
      }
      const bob = { address: '10.0.0.1', username: 'bob' };
      assert.deepEqual(await instances[1]!.check(bob), { allowed: true });
      // The tight limit on one username from one address is shared as well.
      const shared = [createFailureLimiter({}, store), createFailureLimiter({}, store)];
      for (let i = 0; i < 5; i++) await failOnce(shared[i % 2]!, '203.0.113.9', 'carol');
      const carol = { address: '203.0.113.9', username: 'carol' };
      for (const instance of shared) assert.equal((await instance.check(carol)).allowed, false);
    });

    it('concurrent attempts on two instances never both take the last free one', async (t) => {
      const store = await counters(t);
      if (store === undefined) return;
      const [a, b] = [perUsername(3, store), perUsername(3, store)];
      const verdicts = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 === 0 ? a : b).check({ address: `10.0.1.${i}`, username: 'carol' }),
        ),
      );
      assert.equal(verdicts.filter((verdict) => verdict.allowed).length, 3);
    });

    it("a success on one instance forgets the pair's failures on all", async (t) => {
      const store = await counters(t);
      if (store === undefined) return;
      const [a, b] = [createFailureLimiter({}, store), createFailureLimiter({}, store)];
      const dave = { address: '10.0.0.1', username: 'dave' };
      for (let i = 0; i < 4; i++) await failOnce(a, dave.address, dave.username);
      assert.deepEqual(await b.check(dave), { allowed: true });
      await b.succeed(dave);
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(await failOnce(a, dave.address, dave.username), { allowed: true });
      }
    });

    it('a limit reached on one instance holds a remembered password back on the other', async (t) => {
      const store = await counters(t);
      if (store === undefined) return;
      const [a, b] = [createFailureLimiter({}, store), createFailureLimiter({}, store)];
      const erin = { address: '10.0.0.1', username: 'erin' };
      for (let i = 0; i < 4; i++) await failOnce(a, erin.address, erin.username);
      assert.deepEqual(await b.recheck(erin), { allowed: true }, 'four failures: not yet');
      // The recheck forgot the pair's four: five more fit before the limit holds on both.
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(await failOnce(a, erin.address, erin.username), { allowed: true });
      }
      for (const instance of [a, b]) {
        const verdict = await instance.recheck(erin);
        assert.ok(!verdict.allowed, 'refused');
        assert.ok(verdict.retryAfterSeconds > 14 * 60);
      }
    });
  });
}

it("counters live under the connection's key prefix", async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const redis = await openRedis(namespace.url, { keyPrefix: namespace.keyPrefix });
  t.after(() => redis.close());
  await failOnce(createFailureLimiter({}, countInRedis(redis)), '10.0.0.1', 'frank');
  const keys = await redis.client.keys(`${namespace.keyPrefix}*`);
  assert.deepEqual(keys.map((key) => key.slice(namespace.keyPrefix.length).split(':')[0]).sort(), [
    'login-address',
    'login-username',
    'login-username-address',
  ]);
});

it('while Redis is down each instance counts in its own memory, without waiting', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const target = new URL(namespace.url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  const redis = await openRedis(`redis://127.0.0.1:${proxy.port}${target.pathname}`, {
    keyPrefix: namespace.keyPrefix,
  });
  t.after(() => redis.close());
  const [a, b] = [perUsername(2, countInRedis(redis)), perUsername(2, countInRedis(redis))];
  proxy.cut();
  const started = Date.now();
  for (const instance of [a, b]) {
    assert.deepEqual(await failOnce(instance, '10.0.0.1', 'erin'), { allowed: true });
    assert.deepEqual(await failOnce(instance, '10.0.0.1', 'erin'), { allowed: true });
    assert.equal((await instance.check({ address: '10.0.0.1', username: 'erin' })).allowed, false);
  }
  assert.ok(Date.now() - started < 500, `answered in ${Date.now() - started} ms`);
});

it('while Redis is silent each instance counts in its own memory, without waiting', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const target = new URL(namespace.url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  let down = false;
  const redis = await openRedis(`redis://127.0.0.1:${proxy.port}${target.pathname}`, {
    keyPrefix: namespace.keyPrefix,
    onDown: () => (down = true),
  });
  t.after(() => redis.close());
  const [a, b] = [perUsername(2, countInRedis(redis)), perUsername(2, countInRedis(redis))];
  proxy.silence();
  // A check made before the silence is noticed waits out the command timeout (a second) at most.
  const first = Date.now();
  assert.deepEqual(await failOnce(a, '10.0.0.1', 'grace'), { allowed: true });
  assert.ok(Date.now() - first < 1500, `answered in ${Date.now() - first} ms`);
  await until(() => down, 'the silence is noticed');
  const started = Date.now();
  assert.deepEqual(await failOnce(a, '10.0.0.1', 'erin'), { allowed: true });
  assert.deepEqual(await failOnce(a, '10.0.0.1', 'erin'), { allowed: true });
  assert.equal((await a.check({ address: '10.0.0.1', username: 'erin' })).allowed, false);
  assert.deepEqual(await failOnce(b, '10.0.0.1', 'erin'), { allowed: true });
  assert.ok(Date.now() - started < 500, `answered in ${Date.now() - started} ms`);
});
