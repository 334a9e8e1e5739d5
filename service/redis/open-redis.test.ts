// The connection to the Redis server instances share: a real server, and a proxy in front of it
// to cut the connection while the server keeps running.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisNamespace } from '../../test/helpers/services.js';
import { tcpProxy } from '../../test/helpers/tcp-proxy.js';
import { openRedis } from './open-redis.js';
import { until } from '../../test/helpers/wait.js';

test('it connects to the logical database of the URL and answers', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const { url, keyPrefix } = namespace;
  const redis = await openRedis(url, { keyPrefix });
  t.after(() => redis.close());
  assert.equal(redis.database, Number(new URL(url).pathname.slice(1)));
  assert.equal(redis.keyPrefix, keyPrefix);
  await redis.client.set(`${keyPrefix}key`, 'here');
  assert.equal(await redis.client.get(`${keyPrefix}key`), 'here');
});

test('an unreachable server is refused at once with the reason', async () => {
  const started = Date.now();
  await assert.rejects(openRedis('redis://127.0.0.1:1/0', { timeoutMs: 500 }), /ECONNREFUSED/);
  assert.ok(Date.now() - started < 1500);
});

test('an outage is reported once, commands fail at once meanwhile, and it recovers', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const { url, keyPrefix } = namespace;
  const key = `${keyPrefix}key`;
  const target = new URL(url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  const events: string[] = [];
  const redis = await openRedis(`redis://127.0.0.1:${proxy.port}${target.pathname}`, {
    keyPrefix,
    onDown: (error) => events.push(`down: ${error.message}`),
    onUp: () => events.push('up'),
  });
  t.after(() => redis.close());
  await redis.client.set(key, 'before');

  proxy.cut();
  await until(() => events.length === 1, 'the outage is reported');
  const started = Date.now();
  await assert.rejects(redis.client.get(key));
  assert.ok(Date.now() - started < 200, 'no command waits for the connection');
  await sleep(500);
  assert.equal(events.length, 1, 'reported once, however many attempts fail');

  proxy.restore();
  await until(() => events.length === 2, 'the recovery is reported');
  assert.deepEqual(events, ['down: the connection to Redis closed', 'up']);
  assert.equal(await redis.client.get(key), 'before');
});

test('a silent Redis is reported once within a second, commands fail at once after, and it recovers', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const key = `${namespace.keyPrefix}key`;
  const target = new URL(namespace.url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  const events: { at: number; what: string }[] = [];
  const redis = await openRedis(`redis://127.0.0.1:${proxy.port}${target.pathname}`, {
    keyPrefix: namespace.keyPrefix,
    onDown: (error) => events.push({ at: Date.now(), what: `down: ${error.message}` }),
    onUp: () => events.push({ at: Date.now(), what: 'up' }),
  });
  t.after(() => redis.close());
  await redis.client.set(key, 'before');

  // Open, answering nothing: nothing closes, so only asking tells.
  const silenced = Date.now();
  proxy.silence();
  await until(() => events.length === 1, 'the silence is reported');
  assert.ok(events[0]!.at - silenced < 1000, `reported after ${events[0]!.at - silenced} ms`);
  assert.equal(events[0]!.what, 'down: Redis did not answer within 500 ms');
  await until(() => redis.client.status !== 'ready', 'the connection is dropped');
  const started = Date.now();
  await assert.rejects(redis.client.get(key));
  assert.ok(Date.now() - started < 200, 'no command waits for the silent connection');
  // Reconnections meet the same silence; the outage is still reported once.
  await sleep(1500);
  assert.equal(events.length, 1);

  proxy.restore();
  await until(() => events.length === 2, 'the recovery is reported', 10_000);
  assert.equal(events[1]!.what, 'up');
  assert.equal(await redis.client.get(key), 'before');
});

test('start-up against a Redis that accepts but never answers gives up within seconds', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const target = new URL(namespace.url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  proxy.silence();
  const started = Date.now();
  await assert.rejects(
    openRedis(`redis://127.0.0.1:${proxy.port}${target.pathname}`, { timeoutMs: 500 }),
    { message: 'Redis did not answer within 500 ms' },
  );
  assert.ok(Date.now() - started < 2000, `gave up after ${Date.now() - started} ms`);
});
