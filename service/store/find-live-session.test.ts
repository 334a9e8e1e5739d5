import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { findLiveSession, refreshInterval } from './find-live-session.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import { openDatabase } from './sqlite/open-database.js';
import { createSessionRepository } from './sqlite/session-repository.js';
import type { Store, UserRecord } from './store.js';

const MINUTE = 60_000;
const timeouts = { idleMs: 30 * MINUTE, absoluteMs: 8 * 60 * MINUTE };

interface Fixture {
  readonly store: Store;
  /** A second connection to the same file, to look at rows and to race the store. */
  readonly peek: Database.Database;
  readonly file: string;
  readonly alice: UserRecord;
}

async function fixture(t: TestContext): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-sessions-'));
  const file = join(dir, 'vouch.db');
  const store = openSqliteStore(file);
  const peek = new Database(file);
  t.after(async () => {
    peek.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const alice = await store.createUser('alice', 'h', 0);
  return { store, peek, file, alice };
}

function lastSeen(peek: Database.Database, digest: string): number | undefined {
  return peek
    .prepare<[string], number>('SELECT last_seen_at FROM sessions WHERE digest = ?')
    .pluck()
    .get(digest);
}

function count(peek: Database.Database): number {
  return peek.prepare<[], number>('SELECT count(*) FROM sessions').pluck().get() ?? 0;
}

test('the refresh interval is a tenth of the idle timeout, at most a minute', () => {
  assert.equal(refreshInterval({ idleMs: 30 * MINUTE, absoluteMs: 0 }), MINUTE);
  assert.equal(refreshInterval({ idleMs: 100_000, absoluteMs: 0 }), 10_000);
});

test('reads within the refresh interval write nothing; a stale clock is refreshed once', async (t) => {
  const { store, peek, alice } = await fixture(t);
  await store.createSession('s', alice.id, 'h', 1000);
  const changes = peek.prepare<[], number>('PRAGMA data_version').pluck();
  const version = changes.get();
  for (let now = 1000; now < 1000 + MINUTE; now += 5000) {
    await store.findSession('s', now, timeouts);
  }
  // data_version moves when another connection commits to the file: no commit happened.
  assert.equal(changes.get(), version);
  assert.equal(lastSeen(peek, 's'), 1000);
  await store.findSession('s', 1000 + MINUTE, timeouts);
  assert.equal(lastSeen(peek, 's'), 1000 + MINUTE);
  assert.notEqual(changes.get(), version);
});

test('a logout between the read and the refresh wins: nothing answered, nothing recreated', async (t) => {
  const { store, peek, file, alice } = await fixture(t);
  await store.createSession('s', alice.id, 'h', 0);
  const db = openDatabase(file);
  t.after(() => db.close());
  const rows = createSessionRepository(db);
  // The real repository, with another connection's logout landing right after the read.
  const racing = {
    ...rows,
    read(digest: string) {
      const row = rows.read(digest);
      peek.prepare('DELETE FROM sessions WHERE digest = ?').run(digest);
      return row;
    },
  };
  assert.equal(await findLiveSession(racing, 's', 10 * MINUTE, timeouts), undefined);
  assert.equal(count(peek), 0);
  assert.equal((await store.findSession('s', 10 * MINUTE, timeouts))?.user, undefined);
});
