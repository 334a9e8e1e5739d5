// The credential cache over the real SQLite store, with a second connection to the same file
// standing for another process (the CLI, a second service). The engine always answers with a
// promise, so an answer that is not a promise came from memory.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { cacheCredentials, type CredentialCacheOptions } from './credential-cache.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Awaitable, Store, UserRecord } from './store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const timeouts = { idleMs: 10 * MINUTE, absoluteMs: HOUR };

interface Fixture {
  readonly store: Store;
  /** Another connection to the same file: what another process would do. */
  readonly peer: Database.Database;
  readonly alice: UserRecord;
}

async function fixture(
  t: TestContext,
  options: Partial<CredentialCacheOptions> = {},
  wrap: (engine: Store) => Store = (engine) => engine,
): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-cache-'));
  const file = join(dir, 'vouch.db');
  const store = cacheCredentials(wrap(openSqliteStore(file)), { ttlMs: HOUR, ...options });
  const peer = new Database(file);
  t.after(async () => {
    peer.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const alice = await store.createUser('alice', 'h', 0);
  return { store, peer, alice };
}

/** Whether the answer came from memory. */
function fromMemory(answer: Awaitable<unknown>): boolean {
  return !(answer instanceof Promise);
}

/** Waits until `condition` holds, failing the test after two seconds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`not within 2 s: ${what}`);
    await sleep(5);
  }
}

test('a found token, key and session are answered from memory on the next lookup', async (t) => {
  const { store, alice } = await fixture(t);
  await store.createToken('token', alice.id, HOUR, 0);
  const app = await store.createApplication('billing', 'vk_abcd1234', 'key', 0);
  await store.createSession('session', alice.id, 0);

  const token = store.findToken('token', 1);
  assert.equal(fromMemory(token), false, 'the first lookup reads the store');
  assert.deepEqual(await token, { user: alice, expiresAt: HOUR });
  const again = store.findToken('token', 2);
  assert.equal(fromMemory(again), true);
  assert.deepEqual(again, { user: alice, expiresAt: HOUR });

  assert.deepEqual(await store.findApplicationByKey('key'), app);
  const key = store.findApplicationByKey('key');
  assert.equal(fromMemory(key), true);
  assert.deepEqual(key, app);

  assert.deepEqual(await store.findSession('session', 1, timeouts), {
    user: alice,
    createdAt: 0,
    lastSeenAt: 0,
  });
  const session = store.findSession('session', 2, timeouts);
  assert.equal(fromMemory(session), true);
  assert.deepEqual(session, { user: alice, createdAt: 0, lastSeenAt: 0 });
});

test('unknown credentials are not kept: one created afterwards is found', async (t) => {
  const { store, alice } = await fixture(t);
  for (let i = 0; i < 3; i++) {
    const answer = store.findToken('later', 1);
    assert.equal(fromMemory(answer), false);
    assert.equal(await answer, undefined);
  }
  assert.equal(await store.findApplicationByKey('later'), undefined);
  assert.equal(await store.findSession('later', 1, timeouts), undefined);
  await store.createToken('later', alice.id, HOUR, 1);
  await store.createApplication('late app', 'vk_late', 'later', 1);
  await store.createSession('later', alice.id, 1);
  assert.equal((await store.findToken('later', 2))?.user.username, 'alice');
  assert.equal((await store.findApplicationByKey('later'))?.name, 'late app');
  assert.equal((await store.findSession('later', 2, timeouts))?.user.username, 'alice');
});

test('revoking a token or a key, or deleting a session, is seen by the very next lookup', async (t) => {
  const { store, alice } = await fixture(t);
  await store.createToken('token', alice.id, HOUR, 0);
  await store.createToken('other token', alice.id, HOUR, 0);
  const app = await store.createApplication('billing', 'vk_1', 'key', 0);
  await store.createApplication('reports', 'vk_2', 'other key', 0);
  await store.createSession('session', alice.id, 0);
  for (const lookup of [1, 2]) {
    await store.findToken('token', lookup);
    await store.findToken('other token', lookup);
    await store.findApplicationByKey('key');
    await store.findApplicationByKey('other key');
    await store.findSession('session', lookup, timeouts);
  }

  assert.equal(await store.revokeToken('token', 3), true);
  assert.equal(await store.findToken('token', 3), undefined);
  assert.equal(fromMemory(store.findToken('other token', 3)), true, 'other tokens stay');

  assert.equal(await store.revokeApplication(app.id, 3), true);
  assert.equal(await store.findApplicationByKey('key'), undefined);
  assert.equal((await store.findApplicationByKey('other key'))?.name, 'reports');

  await store.deleteSession('session');
  assert.equal(await store.findSession('session', 3, timeouts), undefined);
});

test('a cached token is refused from the instant it expires', async (t) => {
  const { store, alice } = await fixture(t);
  await store.createToken('token', alice.id, 100, 0);
  await store.findToken('token', 1);
  assert.equal(fromMemory(store.findToken('token', 99)), true);
  assert.equal(await store.findToken('token', 100), undefined);
  assert.equal(fromMemory(store.findToken('token', 99)), false, 'and it is forgotten');
});

test('a cached session still dies of its timeouts and still has its idle clock written', async (t) => {
  const { store, peer, alice } = await fixture(t);
  const lastSeen = peer
    .prepare<[string], number>('SELECT last_seen_at FROM sessions WHERE digest = ?')
    .pluck();
  await store.createSession('idle', alice.id, 0);
  await store.findSession('idle', 1, timeouts);
  assert.equal(fromMemory(store.findSession('idle', MINUTE - 1, timeouts)), true);
  // A minute (a tenth of the idle timeout) after the last write, the store writes it again.
  const refreshed = store.findSession('idle', MINUTE, timeouts);
  assert.equal(fromMemory(refreshed), false);
  assert.equal((await refreshed)?.lastSeenAt, MINUTE);
  assert.equal(lastSeen.get('idle'), MINUTE);
  assert.equal(fromMemory(store.findSession('idle', MINUTE + 1, timeouts)), true);
  // Idle for ten minutes since that write: dead, and deleted.
  assert.equal(await store.findSession('idle', 11 * MINUTE, timeouts), undefined);
  assert.equal(lastSeen.get('idle'), undefined);

  // However busy, a session dies an hour after login, even with its idle clock just written.
  await store.createSession('busy', alice.id, 0);
  for (let now = 0; now < HOUR; now += 5 * MINUTE) {
    assert.equal((await store.findSession('busy', now, timeouts))?.user.id, alice.id, `at ${now}`);
  }
  assert.equal(
    (await store.findSession('busy', HOUR - MINUTE / 2, timeouts))?.lastSeenAt,
    HOUR - MINUTE / 2,
  );
  assert.equal(await store.findSession('busy', HOUR, timeouts), undefined);
});

test("kinds never mix: a session's digest is no token and no key", async (t) => {
  const { store, alice } = await fixture(t);
  await store.createSession('shared', alice.id, 0);
  await store.findSession('shared', 1, timeouts);
  assert.equal(await store.findToken('shared', 1), undefined);
  assert.equal(await store.findApplicationByKey('shared'), undefined);
});

test("another connection's commit makes the cache forget everything", async (t) => {
  const { store, peer, alice } = await fixture(t);
  await store.createToken('token', alice.id, HOUR, 0);
  const app = await store.createApplication('billing', 'vk_1', 'key', 0);
  await store.findToken('token', 1);
  await store.findApplicationByKey('key');
  assert.equal(fromMemory(store.findApplicationByKey('key')), true);

  peer.prepare('UPDATE applications SET revoked_at = 2 WHERE id = ?').run(app.id);
  await until(() => !fromMemory(store.findApplicationByKey('key')), 'the key is read again');
  assert.equal(await store.findApplicationByKey('key'), undefined);
  assert.equal(fromMemory(store.findToken('token', 2)), false, 'the token is read again too');
});

test("the store's own commits make the cache forget nothing", async (t) => {
  const { store, alice } = await fixture(t);
  await store.createToken('token', alice.id, HOUR, 0);
  await store.findToken('token', 1);
  await store.createUser('bob', 'h', 1);
  await store.createSession('session', alice.id, 1);
  // Long enough for the file system's notices of those commits to arrive and be settled.
  await sleep(200);
  assert.equal(fromMemory(store.findToken('token', 2)), true);
});

test('a lookup under way when something is forgotten keeps nothing', async (t) => {
  // An engine that answers late, as one over the network does: the row is read at once (before
  // the revocation), and the answer arrives after the revocation has completed.
  const { store } = await fixture(t, {}, (engine) => ({
    ...engine,
    findApplicationByKey(keyDigest) {
      const answer = engine.findApplicationByKey(keyDigest);
      return sleep(20).then(() => answer);
    },
  }));
  const app = await store.createApplication('billing', 'vk_1', 'key', 0);
  const racing = store.findApplicationByKey('key');
  assert.equal(await store.revokeApplication(app.id, 1), true);
  assert.deepEqual(await racing, app, 'read before the revocation');
  const next = store.findApplicationByKey('key');
  assert.equal(fromMemory(next), false, 'the stale answer was not kept');
  assert.equal(await next, undefined);
});

test('nothing is kept longer than ttlMs', async (t) => {
  const { store, alice } = await fixture(t, { ttlMs: 30 });
  await store.createToken('token', alice.id, HOUR, 0);
  await store.findToken('token', 1);
  assert.equal(fromMemory(store.findToken('token', 1)), true);
  await sleep(60);
  assert.equal(fromMemory(store.findToken('token', 1)), false);
});

test('at most maxEntries of each kind are kept, the least recently used going first', async (t) => {
  const { store } = await fixture(t, { maxEntries: 2 });
  for (const key of ['a', 'b', 'c']) await store.createApplication(key, `vk_${key}`, key, 0);
  for (const key of ['a', 'b', 'c']) await store.findApplicationByKey(key);
  assert.equal(fromMemory(store.findApplicationByKey('c')), true);
  assert.equal(fromMemory(store.findApplicationByKey('b')), true);
  assert.equal(fromMemory(store.findApplicationByKey('a')), false);
});

test('when the store can no longer report commits, the cache turns off and says so', async (t) => {
  const reported: Error[] = [];
  let fail: (error: Error) => void = () => {};
  const { store } = await fixture(t, { onDisabled: (error) => reported.push(error) }, (engine) => ({
    ...engine,
    watchForeignCommits(listener, onError) {
      fail = onError;
      return engine.watchForeignCommits(listener, () => {});
    },
  }));
  await store.createApplication('billing', 'vk_1', 'key', 0);
  await store.findApplicationByKey('key');
  assert.equal(fromMemory(store.findApplicationByKey('key')), true);

  fail(new Error('watch lost'));
  assert.deepEqual(
    reported.map((error) => error.message),
    ['watch lost'],
  );
  for (let i = 0; i < 3; i++) {
    const answer = store.findApplicationByKey('key');
    assert.equal(fromMemory(answer), false);
    assert.equal((await answer)?.name, 'billing');
  }
});
