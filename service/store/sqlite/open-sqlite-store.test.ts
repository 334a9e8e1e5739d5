import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { StoreUnavailableError } from 'vouch';
import { openSqliteStore } from './open-sqlite-store.js';
import { openDatabase } from './open-database.js';
import { migrate } from './migrate.js';
import { migrations } from '../migrations.js';
import { NoDatabaseError } from '../../errors.js';

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

test('create: false refuses a file that does not exist, creating nothing', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'data', 'vouch.db');
  assert.throws(
    () => openSqliteStore(file, { create: false }),
    (error: unknown) => {
      assert.ok(error instanceof NoDatabaseError);
      assert.equal(error.code, 'VOUCH_SERVICE_NO_DATABASE');
      assert.equal(error.path, file);
      return true;
    },
  );
  assert.deepEqual(readdirSync(dir), []);
});

test('create: false refuses what the service did not make, and leaves it as it was', (t) => {
  const dir = tempDir(t);
  const other = new Database(join(dir, 'other.db'));
  other.pragma('journal_mode = WAL');
  other.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
  other.close();
  const blank = new Database(join(dir, 'blank.db'));
  blank.pragma('journal_mode = WAL');
  blank.close();
  writeFileSync(join(dir, 'empty.db'), '');
  writeFileSync(join(dir, 'text.db'), 'SQLite format 3? No: a text file long enough to be read\n');
  mkdirSync(join(dir, 'folder.db'));
  const before = readdirSync(dir).map((name) => [name, contents(join(dir, name))]);
  for (const name of ['other.db', 'blank.db', 'empty.db', 'text.db', 'folder.db']) {
    assert.throws(() => openSqliteStore(join(dir, name), { create: false }), {
      code: 'VOUCH_SERVICE_NO_DATABASE',
    });
  }
  assert.deepEqual(
    readdirSync(dir).map((name) => [name, contents(join(dir, name))]),
    before,
  );
});

test('create: false opens a database the service made, and migrates an older one', async (t) => {
  const dir = tempDir(t);
  const current = join(dir, 'vouch.db');
  // Open by the service, just made: all of it still in the write-ahead log.
  const made = openSqliteStore(current);
  await made.createUser('alice', 'h', 0);
  const alongside = openSqliteStore(current, { create: false });
  assert.equal((await alongside.findUserCredentials('alice'))?.username, 'alice');
  await alongside.close();
  await made.close();
  const reopened = openSqliteStore(current, { create: false });
  assert.equal((await reopened.findUserCredentials('alice'))?.username, 'alice');
  await reopened.close();

  const older = join(dir, 'older.db');
  const db = new Database(older);
  migrate(db, migrations.slice(0, 1));
  db.close();
  const migrated = openSqliteStore(older, { create: false });
  t.after(() => migrated.close());
  assert.deepEqual(await migrated.userScopes(1), []);
});

/** A file's bytes, or `folder`. */
function contents(path: string): string {
  return statSync(path).isFile() ? readFileSync(path).toString('base64') : 'folder';
}
