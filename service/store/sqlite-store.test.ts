import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { StoreUnavailableError } from 'vouch';
import { openSqliteStore } from './sqlite-store.js';
import { openDatabase } from './sqlite/open-database.js';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-store-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

test('the file gets WAL, synchronous=FULL, foreign keys, and a connection that never waits', async (t) => {
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
  // Waiting for a lock blocks the event loop in this driver: the store waits between attempts.
  assert.equal(own.pragma('busy_timeout', { simple: true }), 0);
});

test('the parent directory is created, and the file is private to its owner', async (t) => {
  const dir = join(tempDir(t), 'data');
  const file = join(dir, 'vouch.db');
  const store = openSqliteStore(file);
  await store.close();
  assert.ok(statSync(dir).isDirectory());
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
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
  assert.ok(Date.now() - started >= 50, 'it waited the whole busy timeout first');
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

test('sqlite::memory: is a private database whose changes need no watching', async () => {
  const store = openSqliteStore(':memory:');
  const seen: string[] = [];
  const stop = store.watchChanges({
    ready: () => seen.push('ready'),
    changed: () => seen.push('changed'),
    pending: () => seen.push('pending'),
    lost: () => seen.push('lost'),
  });
  const alice = await store.createUser('alice', 'h', 0);
  await store.createToken('t', alice.id, 10, 0);
  await store.revokeToken('t', 1);
  stop();
  await store.close();
  assert.deepEqual(seen, ['ready']);
});
