// The test helpers touch only what they made: a Redis namespace's cleanup deletes its own keys and
// leaves every other key of the shared logical database as it was.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { createRedisNamespace, redisNamespace, TEST_REDIS_URL } from './services.js';

test("a Redis namespace's cleanup deletes its keys, and nothing else on the database", async (t) => {
  // Skips (or fails under CI=true) when Redis is unreachable.
  if ((await redisNamespace(t)) === undefined) return;
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await client.connect();

  const namespace = await createRedisNamespace('vouch-test');
  // Someone else's keys on the same database, one of them beginning like the namespace's prefix
  // without its last character; removed by this test, which made them, at the end.
  const foreign = [
    `someone-else:${randomBytes(6).toString('hex')}`,
    `${namespace.keyPrefix.slice(0, -1)}x`,
  ];
  t.after(async () => {
    await client.del(...foreign);
    client.disconnect();
  });
  for (const key of foreign) await client.set(key, 'not yours');

  // More keys than one SCAN batch returns.
  const own = Array.from({ length: 1200 }, (_, i) => `${namespace.keyPrefix}${i}`);
  await client.mset(...own.flatMap((key) => [key, 'mine']));
  await namespace.dispose();

  assert.equal(await client.exists(...own), 0);
  for (const key of foreign) assert.equal(await client.get(key), 'not yours', key);
});
