// Other connections' commits, told apart from the watching connection's own, on a real file.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from './open-database.js';
import { watchForeignCommits } from './watch-foreign-commits.js';
import { until } from '../../../test/helpers/wait.js';

interface Fixture {
  readonly dir: string;
  readonly file: string;
  /** The watching connection. */
  readonly db: Database.Database;
  /** Another connection to the same file. */
  readonly peer: Database.Database;
}

function fixture(t: TestContext): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-watch-'));
  const file = join(dir, 'vouch.db');
  const db = openDatabase(file);
  const peer = new Database(file);
  t.after(() => {
    peer.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, file, db, peer };
}

/** Counts the changes reported, and records the errors and readiness in order. */
function recorder() {
  const record = { commits: 0, errors: [] as Error[], events: [] as string[] };
  return {
    record,
    watcher: {
      ready: () => void record.events.push('ready'),
      changed: () => {
        record.commits += 1;
        record.events.push('changed');
      },
      pending: () => void record.events.push('pending'),
      lost: (error: Error) => {
        record.errors.push(error);
        record.events.push('lost');
      },
    },
  };
}

const asIs = (error: unknown) => error as Error;

/**
 * Takes the write lock on `peer` and writes more than the page cache holds, so that pages spill
 * to the log while the lock is held: the file changes before any commit.
 */
function holdWriteLock(peer: Database.Database): void {
  peer.exec("BEGIN IMMEDIATE; INSERT INTO settings (name, value) VALUES ('held', 'v')");
  peer.exec(`INSERT INTO settings (name, value) SELECT 'pad' || value, hex(zeroblob(4096)) FROM
    (WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n LIMIT 2000)
     SELECT value FROM n)`);
}

function setting(db: Database.Database, name: string): void {
  db.prepare('INSERT INTO settings (name, value) VALUES (?, ?)').run(name, 'v');
}

test("another connection's commit is reported, once it is visible", async (t) => {
  const { file, db, peer } = fixture(t);
  const { record, watcher } = recorder();
  const stop = watchForeignCommits(db, file, watcher, asIs);
  t.after(stop);
  setting(peer, 'a');
  await until(() => record.commits > 0, 'the commit is reported');
  // Reported after the commit became visible to the watching connection.
  const read = db.prepare<[string], string>('SELECT value FROM settings WHERE name = ?').pluck();
  assert.equal(read.get('a'), 'v');
  setting(peer, 'b');
  await until(() => record.commits > 1, 'the second commit is reported');
  assert.deepEqual(record.errors, []);
});

test("the watching connection's own commits, and other files in the folder, are not", async (t) => {
  const { dir, file, db, peer } = fixture(t);
  const { record, watcher } = recorder();
  const stop = watchForeignCommits(db, file, watcher, asIs);
  t.after(stop);
  for (let i = 0; i < 5; i++) setting(db, `own ${i}`);
  writeFileSync(join(dir, 'notes.txt'), 'unrelated');
  await sleep(200);
  assert.equal(record.commits, 0);
  setting(peer, 'foreign');
  await until(() => record.commits === 1, 'the foreign commit is reported');
});

test('nothing is reported once stopped', async (t) => {
  const { file, db, peer } = fixture(t);
  const { record, watcher } = recorder();
  const stop = watchForeignCommits(db, file, watcher, asIs);
  stop();
  setting(peer, 'a');
  await sleep(200);
  assert.equal(record.commits, 0);
  assert.deepEqual(record.errors, []);
});

test('an in-memory database has no other connection: nothing is watched', () => {
  const db = openDatabase(':memory:');
  const { record, watcher } = recorder();
  const stop = watchForeignCommits(db, ':memory:', watcher, asIs);
  stop();
  db.close();
  assert.deepEqual(record, { commits: 0, errors: [], events: ['ready'] });
});

test('a file that cannot be watched is an error, reported once', (t) => {
  const { dir, db } = fixture(t);
  const { record, watcher } = recorder();
  const stop = watchForeignCommits(db, join(dir, 'missing', 'vouch.db'), watcher, asIs);
  stop();
  assert.equal(record.errors.length, 1);
  assert.equal((record.errors[0] as NodeJS.ErrnoException).code, 'ENOENT');
  assert.deepEqual(record.events, ['ready', 'lost']);
});

test('while another connection holds the write lock: pending, without blocking; then ready', async (t) => {
  const { file, db, peer } = fixture(t);
  const { record, watcher } = recorder();
  const stop = watchForeignCommits(db, file, watcher, asIs);
  t.after(stop);
  holdWriteLock(peer);
  await until(() => record.events.includes('pending'), 'the pending change is reported');
  // The event loop was never held: timers keep firing on time while the lock is held.
  const started = Date.now();
  await sleep(50);
  assert.ok(Date.now() - started < 90);
  assert.equal(record.commits, 0, 'nothing is committed yet');
  peer.exec('COMMIT');
  await until(() => record.events.at(-1) === 'ready', 'ready again once the lock is released');
  assert.deepEqual(record.events, ['ready', 'pending', 'changed', 'ready']);
  assert.deepEqual(record.errors, [], 'a short lock is no failure');
  setting(peer, 'later');
  await until(() => record.commits === 2, 'later commits are reported still');
});

test('a write lock held for a second counts as lost, and is said once; then ready', async (t) => {
  const { file, db, peer } = fixture(t);
  const { record, watcher } = recorder();
  const stop = watchForeignCommits(db, file, watcher, asIs);
  t.after(stop);
  holdWriteLock(peer);
  await until(() => record.errors.length > 0, 'the long lock is reported', 3000);
  assert.equal((record.errors[0] as { code?: string }).code, 'SQLITE_BUSY');
  await sleep(300);
  assert.equal(record.errors.length, 1, 'said once');
  peer.exec('ROLLBACK');
  await until(() => record.events.at(-1) === 'ready', 'ready again once released');
  assert.deepEqual(record.events, ['ready', 'pending', 'lost', 'ready']);
  assert.equal(record.commits, 0, 'a rolled-back transaction changed nothing');
});
