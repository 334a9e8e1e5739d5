import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { StoreUnavailableError } from 'vouch';
import { openSqliteStore } from './sqlite-store.js';
import { openDatabase } from './sqlite/open-database.js';
import { NotFoundError, UsernameTakenError, type Store } from './store.js';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-store-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function memoryStore(t: TestContext): Store {
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  return store;
}

const HOUR = 3_600_000;

test('users: created, found with their hash, listed by id, counted', async (t) => {
  const store = memoryStore(t);
  assert.equal(await store.countUsers(), 0);
  const alice = await store.createUser('alice', 'hash-a', 1000);
  assert.deepEqual(alice, { id: alice.id, username: 'alice', createdAt: 1000 });
  const bob = await store.createUser('bob', 'hash-b', 2000);
  assert.deepEqual(await store.findUserCredentials('alice'), { ...alice, passwordHash: 'hash-a' });
  assert.equal(await store.findUserCredentials('nobody'), undefined);
  assert.deepEqual(await store.listUsers(), [alice, bob]);
  assert.equal(await store.countUsers(), 2);
});

test('users: a taken name is UsernameTakenError; names compare case-sensitively', async (t) => {
  const store = memoryStore(t);
  await store.createUser('alice', 'h', 1);
  await assert.rejects(store.createUser('alice', 'h2', 2), (error: unknown) => {
    assert.ok(error instanceof UsernameTakenError);
    assert.equal(error.code, 'VOUCH_SERVICE_USERNAME_TAKEN');
    return true;
  });
  await store.createUser('Alice', 'h', 3);
  assert.equal(await store.countUsers(), 2);
});

test('tokens: valid until expiresAt, then gone', async (t) => {
  const store = memoryStore(t);
  const alice = await store.createUser('alice', 'h', 0);
  await store.createToken('digest-1', alice.id, 10 * HOUR, 0);
  assert.deepEqual((await store.findToken('digest-1', 10 * HOUR - 1))?.user, alice);
  assert.equal((await store.findToken('digest-1', 10 * HOUR))?.user, undefined);
  assert.equal((await store.findToken('unknown', 0))?.user, undefined);
});

test('tokens: revocation takes effect at once and only once', async (t) => {
  const store = memoryStore(t);
  const alice = await store.createUser('alice', 'h', 0);
  await store.createToken('digest-1', alice.id, HOUR, 0);
  await store.createToken('digest-2', alice.id, HOUR, 0);
  assert.equal(await store.revokeToken('digest-1', 5), true);
  assert.equal((await store.findToken('digest-1', 6))?.user, undefined);
  assert.deepEqual((await store.findToken('digest-2', 6))?.user, alice);
  assert.equal(await store.revokeToken('digest-1', 7), false);
  await assert.rejects(store.revokeToken('unknown', 7), NotFoundError);
});

test('applications: found by key digest until revoked; revocation at once', async (t) => {
  const store = memoryStore(t);
  const app = await store.createApplication('billing', 'vk_abcdefgh', 'key-digest', 100);
  assert.deepEqual(app, {
    id: app.id,
    name: 'billing',
    keyPrefix: 'vk_abcdefgh',
    createdAt: 100,
    revokedAt: null,
  });
  assert.deepEqual(await store.findApplicationByKey('key-digest'), app);
  assert.equal(await store.findApplicationByKey('other'), undefined);
  assert.equal(await store.revokeApplication(app.id, 200), true);
  assert.equal(await store.findApplicationByKey('key-digest'), undefined);
  assert.deepEqual(await store.listApplications(), [{ ...app, revokedAt: 200 }]);
  assert.equal(await store.revokeApplication(app.id, 300), false);
  assert.deepEqual(await store.listApplications(), [{ ...app, revokedAt: 200 }]);
});

test('applications: revoking an unknown id is NotFoundError', async (t) => {
  const store = memoryStore(t);
  await assert.rejects(store.revokeApplication(42, 1), (error: unknown) => {
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.code, 'VOUCH_SERVICE_NOT_FOUND');
    return true;
  });
});

test('applications: a key digest is unique', async (t) => {
  const store = memoryStore(t);
  await store.createApplication('a', 'vk_1', 'same', 1);
  await assert.rejects(store.createApplication('b', 'vk_2', 'same', 2), /UNIQUE/);
});

test('settings: absent, then the first writer wins, across connections', async (t) => {
  const file = join(tempDir(t), 'vouch.db');
  const one = openSqliteStore(file);
  const two = openSqliteStore(file);
  t.after(async () => {
    await one.close();
    await two.close();
  });
  assert.equal(await one.getSetting('secret'), undefined);
  assert.equal(await one.setSettingIfAbsent('secret', 'first'), 'first');
  assert.equal(await two.setSettingIfAbsent('secret', 'second'), 'first');
  assert.equal(await two.getSetting('secret'), 'first');
});

test('the file gets WAL, synchronous=FULL, foreign keys and a busy timeout', async (t) => {
  const file = join(tempDir(t), 'nested', 'dir', 'vouch.db');
  const store = openSqliteStore(file, { busyTimeoutMs: 1234 });
  await store.ping();
  // The store's connection is private: WAL shows in the file itself, the per-connection settings
  // on a connection opened by the same function.
  const db = new Database(file);
  t.after(() => db.close());
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  await store.close();

  const own = openDatabase(file, { busyTimeoutMs: 1234 });
  t.after(() => own.close());
  assert.equal(own.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(own.pragma('synchronous', { simple: true }), 2); // FULL
  assert.equal(own.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(own.pragma('busy_timeout', { simple: true }), 1234);
});

test('the parent directory is created, and the file is private to its owner', async (t) => {
  const dir = join(tempDir(t), 'data');
  const file = join(dir, 'vouch.db');
  const store = openSqliteStore(file);
  await store.close();
  assert.ok(statSync(dir).isDirectory());
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
});

test('foreign keys are enforced: no token or session for an unknown user', async (t) => {
  const store = memoryStore(t);
  await assert.rejects(store.createToken('d', 999, 10, 0), /FOREIGN KEY/);
  await assert.rejects(store.createSession('d', 999, 0), /FOREIGN KEY/);
});

test('restarting keeps users, tokens, keys, revocations and settings', async (t) => {
  const file = join(tempDir(t), 'vouch.db');
  const before = openSqliteStore(file);
  const alice = await before.createUser('alice', 'h', 1);
  await before.createToken('live', alice.id, HOUR, 0);
  await before.createToken('revoked', alice.id, HOUR, 0);
  await before.revokeToken('revoked', 1);
  const kept = await before.createApplication('kept', 'vk_1', 'kept-digest', 1);
  const gone = await before.createApplication('gone', 'vk_2', 'gone-digest', 1);
  await before.revokeApplication(gone.id, 2);
  await before.createSession('session', alice.id, 0);
  await before.setSettingIfAbsent('secret', 's');
  await before.close();

  const after = openSqliteStore(file);
  t.after(() => after.close());
  assert.deepEqual(await after.listUsers(), [alice]);
  assert.deepEqual((await after.findToken('live', 2))?.user, alice);
  assert.equal((await after.findToken('revoked', 2))?.user, undefined);
  assert.deepEqual(await after.findApplicationByKey('kept-digest'), kept);
  assert.equal(await after.findApplicationByKey('gone-digest'), undefined);
  const timeouts = { idleMs: HOUR, absoluteMs: 10 * HOUR };
  assert.deepEqual((await after.findSession('session', 1, timeouts))?.user, alice);
  assert.equal(await after.getSetting('secret'), 's');
});

test('a write lock held past the busy timeout is StoreUnavailableError; reads go on', async (t) => {
  const file = join(tempDir(t), 'vouch.db');
  const store = openSqliteStore(file, { busyTimeoutMs: 50 });
  t.after(() => store.close());
  await store.createUser('alice', 'h', 1);

  const other = new Database(file);
  t.after(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  const started = Date.now();
  await assert.rejects(store.createUser('bob', 'h', 2), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.equal(error.code, 'VOUCH_ERR_STORE_UNAVAILABLE');
    assert.equal(error.statusCode, 503);
    assert.match(error.message, /SQLITE_BUSY/);
    return true;
  });
  assert.ok(Date.now() - started >= 40, 'it waited for the busy timeout first');
  await assert.rejects(store.revokeApplication(1, 3), StoreUnavailableError);
  // WAL: readers are not blocked by a writer.
  assert.equal((await store.findUserCredentials('alice'))?.username, 'alice');
  await store.ping();

  other.exec('ROLLBACK');
  await store.createUser('bob', 'h', 2);
  assert.equal(await store.countUsers(), 2);
});

test('opening a file locked exclusively by another connection is StoreUnavailableError', async (t) => {
  const file = join(tempDir(t), 'vouch.db');
  await openSqliteStore(file).close();
  const other = new Database(file, { timeout: 0 });
  t.after(() => other.close());
  other.pragma('locking_mode = EXCLUSIVE');
  other.exec('BEGIN EXCLUSIVE');
  assert.throws(() => openSqliteStore(file, { busyTimeoutMs: 20 }), StoreUnavailableError);
  other.exec('COMMIT');
});

test('after close, every call is StoreUnavailableError; closing twice is harmless', async (t) => {
  const store = openSqliteStore(join(tempDir(t), 'vouch.db'));
  await store.ping();
  await store.close();
  await store.close();
  await assert.rejects(store.ping(), StoreUnavailableError);
  await assert.rejects(async () => store.findToken('x', 0), StoreUnavailableError);
  await assert.rejects(
    async () => store.findSession('x', 0, { idleMs: 1, absoluteMs: 1 }),
    StoreUnavailableError,
  );
});
