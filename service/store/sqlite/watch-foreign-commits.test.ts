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

/** Counts the listener's calls and the errors reported. */
function recorder() {
  const record = { commits: 0, errors: [] as Error[] };
  return {
    record,
    listener: () => {
      record.commits += 1;
    },
    onError: (error: Error) => {
      record.errors.push(error);
    },
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`not within 2 s: ${what}`);
    await sleep(5);
  }
}

function setting(db: Database.Database, name: string): void {
  db.prepare('INSERT INTO settings (name, value) VALUES (?, ?)').run(name, 'v');
}

test("another connection's commit is reported, once it is visible", async (t) => {
  const { file, db, peer } = fixture(t);
  const { record, listener, onError } = recorder();
  const stop = watchForeignCommits(db, file, listener, onError);
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
  const { record, listener, onError } = recorder();
  const stop = watchForeignCommits(db, file, listener, onError);
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
  const { record, listener, onError } = recorder();
  const stop = watchForeignCommits(db, file, listener, onError);
  stop();
  setting(peer, 'a');
  await sleep(200);
  assert.equal(record.commits, 0);
  assert.deepEqual(record.errors, []);
});

test('an in-memory database has no other connection: nothing is watched', () => {
  const db = openDatabase(':memory:');
  const { record, listener, onError } = recorder();
  const stop = watchForeignCommits(db, ':memory:', listener, onError);
  stop();
  db.close();
  assert.deepEqual(record, { commits: 0, errors: [] });
});

test('a file that cannot be watched is an error, reported once', (t) => {
  const { dir, db } = fixture(t);
  const { record, listener, onError } = recorder();
  const stop = watchForeignCommits(db, join(dir, 'missing', 'vouch.db'), listener, onError);
  stop();
  assert.equal(record.errors.length, 1);
  assert.equal((record.errors[0] as NodeJS.ErrnoException).code, 'ENOENT');
});

test('a notice that cannot be settled stops the watch and is reported', async (t) => {
  const { file, db, peer } = fixture(t);
  const { record, listener, onError } = recorder();
  const stop = watchForeignCommits(db, file, listener, onError);
  t.after(stop);
  // The peer holds the write lock past the busy timeout: the settling transaction cannot begin.
  db.pragma('busy_timeout = 0');
  peer.exec("BEGIN IMMEDIATE; INSERT INTO settings (name, value) VALUES ('held', 'v')");
  // More than the page cache holds: pages spill to the log while the lock is held, so the file
  // changes before any commit.
  peer.exec(`INSERT INTO settings (name, value) SELECT 'pad' || value, hex(zeroblob(4096)) FROM
    (WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n LIMIT 2000)
     SELECT value FROM n)`);
  await until(() => record.errors.length > 0, 'the error is reported');
  peer.exec('COMMIT');
  await sleep(100);
  assert.equal(record.errors.length, 1);
  assert.equal((record.errors[0] as { code?: string }).code, 'SQLITE_BUSY');
  assert.equal(record.commits, 0, 'nothing is reported after the error');
});
