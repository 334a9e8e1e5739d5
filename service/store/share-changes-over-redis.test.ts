// Revocations and logouts shared over Redis pub/sub between stores on one database, as between
// instances (or the CLI and the instances): a real Redis, a real SQLite file, and a proxy to cut
// the subscriber's connection or make it silent.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisNamespace } from '../../test/helpers/services.js';
import { storeEngines } from '../../test/helpers/store-engines.js';
import { tcpProxy } from '../../test/helpers/tcp-proxy.js';
import { cacheCredentials } from './credential-cache.js';
import type { ChangeWatcher, CredentialChange, Store } from './store.js';
import { openRedis, type RedisConnection } from '../redis/open-redis.js';
import { changesChannel, shareChangesOverRedis } from './share-changes-over-redis.js';
import { until } from '../../test/helpers/wait.js';

const sqlite = storeEngines.find((engine) => engine.name === 'SQLite')!;
const HOUR = 3_600_000;

/** Watches `store` until the test ends, recording what it is told, once subscribed. */
async function watch(t: TestContext, store: Store) {
  const seen = { events: [] as string[], changes: [] as CredentialChange[] };
  const watcher: ChangeWatcher = {
    ready: () => void seen.events.push('ready'),
    changed: (change) => void seen.changes.push(change),
    pending: () => void seen.events.push('pending'),
    lost: () => void seen.events.push('lost'),
  };
  t.after(store.watchChanges(watcher));
  await until(() => seen.events.length === 1, 'subscribed');
  return seen;
}

/** Where a deployment's Redis is: a URL, and the key prefix its keys and channel begin with. */
interface Namespace {
  readonly url: string;
  readonly keyPrefix: string;
}

async function connect(t: TestContext, { url, keyPrefix }: Namespace): Promise<RedisConnection> {
  const redis = await openRedis(url, { keyPrefix });
  t.after(() => redis.close());
  return redis;
}

/** Two stores on one database, each sharing its changes over its own Redis connection. */
async function instances(t: TestContext, namespace: Namespace): Promise<[Store, Store]> {
  const db = (await sqlite.create(t))!;
  return [
    shareChangesOverRedis(await db.open(), await connect(t, namespace)),
    shareChangesOverRedis(await db.open(), await connect(t, namespace)),
  ];
}

test('a revocation or logout through one store is heard by the other, with what it took', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const [a, b] = await instances(t, namespace);
  const seen = await watch(t, b);

  const alice = await a.createUser('alice', 'h', 0);
  await a.createToken('token-digest', alice.id, 1000, 0);
  await a.createSession('session-digest', alice.id, 'h', 0);
  const app = await a.createApplication('billing', 'vk_1', 'key-digest', 0);
  assert.equal(await a.revokeToken('token-digest', 1), true);
  await a.deleteSession('session-digest');
  assert.equal(await a.revokeApplication(app.id, 1), true);
  await until(() => seen.changes.length === 3, 'three changes heard');
  assert.deepEqual(seen.changes, [
    { kind: 'token', digest: 'token-digest' },
    { kind: 'session', digest: 'session-digest' },
    { kind: 'applications' },
  ]);
  // Once heard, the other store reads the change.
  assert.equal(await b.findToken('token-digest', 2), undefined);
  assert.deepEqual(seen.events, ['ready']);
});

test('a change of grants through one store is heard by the other', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const [a, b] = await instances(t, namespace);
  const seen = await watch(t, b);

  await a.createUser('alice', 'h', 0);
  const app = await a.createApplication('billing', 'vk_1', 'key-digest', 0);
  assert.equal(await a.grantUserScope('alice', 'admin'), true);
  assert.equal(await a.revokeUserScope('alice', 'admin'), true);
  assert.equal(await a.grantApplicationScope(app.id, 'admin'), true);
  assert.equal(await a.revokeApplicationScope(app.id, 'admin'), true);
  await until(() => seen.changes.length === 4, 'four changes heard');
  assert.deepEqual(seen.changes, [
    { kind: 'all' },
    { kind: 'all' },
    { kind: 'applications' },
    { kind: 'applications' },
  ]);
});

test("revoking a user's tokens through one store is heard by the other as a change to anything", async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const [a, b] = await instances(t, namespace);
  const seen = await watch(t, b);

  const alice = await a.createUser('alice', 'h', 0);
  await a.createToken('laptop', alice.id, HOUR, 0);
  await a.createToken('phone', alice.id, HOUR, 0);
  assert.equal(await a.revokeUserTokens('alice', 1), 2);
  await until(() => seen.changes.length === 1, 'the change heard');
  assert.deepEqual(seen.changes, [{ kind: 'all' }]);
  assert.equal(await b.findToken('laptop', 2), undefined);
});

test('a write that fails publishes nothing', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const [a, b] = await instances(t, namespace);
  const seen = await watch(t, b);
  await assert.rejects(a.revokeToken('unknown', 1));
  await assert.rejects(a.revokeApplication(42, 1));
  await assert.rejects(a.revokeUserTokens('nobody', 1));
  await sleep(100);
  assert.deepEqual(seen.changes, []);
});

test("each key prefix has its own channel: another deployment's changes are not heard", async (t) => {
  const namespace = await redisNamespace(t);
  const other = await redisNamespace(t);
  if (namespace === undefined || other === undefined) return;
  const [a] = await instances(t, namespace);
  const [, elsewhere] = await instances(t, other);
  const seen = await watch(t, elsewhere);
  await a.deleteSession('s');
  await sleep(100);
  assert.deepEqual(seen.changes, []);
});

test('the channel carries the key prefix and the logical database', () => {
  assert.equal(changesChannel({ keyPrefix: 'vouch:', database: 0 }), 'vouch:0:credentials');
  assert.equal(changesChannel({ keyPrefix: 'staging:', database: 3 }), 'staging:3:credentials');
  assert.notEqual(
    changesChannel({ keyPrefix: 'vouch:', database: 1 }),
    changesChannel({ keyPrefix: 'vouch:', database: 2 }),
  );
});

test('a cut subscriber connection is lost, then subscribes again by itself', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const target = new URL(namespace.url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  const [a] = await instances(t, namespace);
  const db = (await sqlite.create(t))!;
  const b = shareChangesOverRedis(
    await db.open(),
    await connect(t, { ...namespace, url: `redis://127.0.0.1:${proxy.port}${target.pathname}` }),
  );
  const seen = await watch(t, b);

  proxy.cut();
  await until(() => seen.events.length === 2, 'lost');
  await a.deleteSession('during');
  proxy.restore();
  await until(() => seen.events.length === 3, 'subscribed again');
  assert.deepEqual(seen.events, ['ready', 'lost', 'ready']);
  await a.deleteSession('after');
  await until(() => seen.changes.length > 0, 'a change after the reconnection is heard');
  assert.deepEqual(seen.changes, [{ kind: 'session', digest: 'after' }]);
});

test('while the subscriber hears a silent Redis, a cached store reads the database, within a second', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const target = new URL(namespace.url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  const db = (await sqlite.create(t))!;
  // A revokes, over Redis it reaches directly; B caches, and hears Redis through the proxy.
  const a = shareChangesOverRedis(await db.open(), await connect(t, namespace));
  const cacheEvents: string[] = [];
  const b = cacheCredentials(
    shareChangesOverRedis(
      await db.open(),
      await connect(t, { ...namespace, url: `redis://127.0.0.1:${proxy.port}${target.pathname}` }),
    ),
    {
      ttlMs: 60_000,
      onDisabled: (error) => cacheEvents.push(`off: ${error.message}`),
      onEnabled: () => cacheEvents.push('on'),
    },
  );
  t.after(() => b.close());
  const alice = await a.createUser('alice', 'h', 0);
  for (const digest of ['first', 'second']) await a.createToken(digest, alice.id, HOUR, 0);
  /** Whether B answers the token from memory (the engine always answers with a promise). */
  const cached = (digest: string) => {
    const answer = b.findToken(digest, 1);
    return answer !== undefined && !(answer instanceof Promise);
  };
  await until(() => cached('first'), 'B keeps the token once subscribed');

  proxy.silence();
  const silenced = Date.now();
  assert.equal(await a.revokeToken('first', 1), true);
  for (;;) {
    if ((await b.findToken('first', 2)) === undefined) break;
    assert.ok(Date.now() - silenced < 1000, 'still accepted a second after Redis fell silent');
    await sleep(10);
  }
  assert.deepEqual(cacheEvents, ['off: Redis did not answer within 500 ms']);
  // Until Redis answers, every lookup reads the database; the outage is reported once.
  await sleep(1500);
  assert.equal(cached('second'), false);
  assert.equal(cached('second'), false);
  assert.equal(cacheEvents.length, 1);

  proxy.restore();
  await until(() => cacheEvents.length === 2, 'the cache is back on', 10_000);
  assert.equal(cacheEvents[1], 'on');
  await until(() => cached('second'), 'B keeps the token again');
  // And hears what is taken away, once more, over Redis.
  assert.equal(await a.revokeToken('second', 1), true);
  await until(() => !cached('second'), 'the revocation is heard');
  assert.equal(await b.findToken('second', 2), undefined);
});

test('a publication to a silent Redis gives up within its timeout, as does closing', async (t) => {
  const namespace = await redisNamespace(t);
  if (namespace === undefined) return;
  const target = new URL(namespace.url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
  const db = (await sqlite.create(t))!;
  const redis = await openRedis(`redis://127.0.0.1:${proxy.port}${target.pathname}`, {
    keyPrefix: namespace.keyPrefix,
  });
  const store = shareChangesOverRedis(await db.open(), redis);
  const alice = await store.createUser('alice', 'h', 0);
  await store.createToken('token', alice.id, HOUR, 0);
  proxy.silence();
  let started = Date.now();
  // The revocation is made, whatever Redis does.
  assert.equal(await store.revokeToken('token', 1), true);
  assert.ok(Date.now() - started < 1500, `revoked after ${Date.now() - started} ms`);
  assert.equal(await store.findToken('token', 2), undefined);
  started = Date.now();
  await store.close();
  await redis.close();
  assert.ok(Date.now() - started < 1500, `closed after ${Date.now() - started} ms`);
});
