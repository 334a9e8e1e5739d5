import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { findLiveSession, refreshInterval } from './find-live-session.js';
import { openSqliteStore } from './sqlite-store.js';
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

test('a live session answers its user; unknown digests answer nothing', async (t) => {
  const { store, alice } = await fixture(t);
  await store.createSession('s', alice.id, 0);
  assert.deepEqual((await store.findSession('s', 1, timeouts))?.user, alice);
  assert.equal((await store.findSession('unknown', 1, timeouts))?.user, undefined);
});

test('idle timeout: a session unused for idleMs dies and its row is deleted', async (t) => {
  const { store, peek, alice } = await fixture(t);
  await store.createSession('s', alice.id, 0);
  assert.deepEqual((await store.findSession('s', timeouts.idleMs - 1, timeouts))?.user, alice);
  // That use refreshed the idle clock, so the session lives on past the first deadline…
  assert.deepEqual((await store.findSession('s', 2 * timeouts.idleMs - 2, timeouts))?.user, alice);
  // …until it is left alone for idleMs.
  assert.equal((await store.findSession('s', 3 * timeouts.idleMs - 2, timeouts))?.user, undefined);
  assert.equal(count(peek), 0);
});

test('absolute timeout: a busy session still dies absoluteMs after login', async (t) => {
  const { store, peek, alice } = await fixture(t);
  await store.createSession('s', alice.id, 0);
  let now = 0;
  while (now + 10 * MINUTE < timeouts.absoluteMs) {
    now += 10 * MINUTE;
    assert.deepEqual((await store.findSession('s', now, timeouts))?.user, alice);
  }
  assert.equal((await store.findSession('s', timeouts.absoluteMs, timeouts))?.user, undefined);
  assert.equal(count(peek), 0);
});

test('reads within the refresh interval write nothing; a stale clock is refreshed once', async (t) => {
  const { store, peek, alice } = await fixture(t);
  await store.createSession('s', alice.id, 1000);
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

test('an older clock never moves last_seen_at backwards', async (t) => {
  const { store, peek, alice } = await fixture(t);
  await store.createSession('s', alice.id, 0);
  await store.findSession('s', 5 * MINUTE, timeouts);
  assert.equal(lastSeen(peek, 's'), 5 * MINUTE);
  const rows = createSessionRepository(peek);
  assert.equal(rows.touch('s', 2 * MINUTE), true);
  assert.equal(lastSeen(peek, 's'), 5 * MINUTE);
});

test('a logout between the read and the refresh wins: nothing answered, nothing recreated', async (t) => {
  const { store, peek, file, alice } = await fixture(t);
  await store.createSession('s', alice.id, 0);
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

test('a request racing a logout on the same store never resurrects the session', async (t) => {
  const { store, peek, alice } = await fixture(t);
  for (let round = 0; round < 50; round++) {
    const digest = `s${round}`;
    await store.createSession(digest, alice.id, 0);
    // The read needs a refresh (stale by 10 minutes), so both operations write.
    const racers: Promise<unknown>[] = [
      Promise.resolve(store.findSession(digest, 10 * MINUTE, timeouts)),
      store.deleteSession(digest),
      Promise.resolve(store.findSession(digest, 10 * MINUTE + 1, timeouts)),
    ];
    if (round % 2 === 1) racers.reverse();
    await Promise.all(racers);
    assert.equal((await store.findSession(digest, 10 * MINUTE + 2, timeouts))?.user, undefined);
  }
  assert.equal(count(peek), 0);
});

test('a logout from another connection is seen at once by the next request', async (t) => {
  const { store, file, alice } = await fixture(t);
  const other = openSqliteStore(file);
  t.after(() => other.close());
  await store.createSession('s', alice.id, 0);
  assert.deepEqual((await store.findSession('s', 1, timeouts))?.user, alice);
  await other.deleteSession('s');
  assert.equal((await store.findSession('s', 2, timeouts))?.user, undefined);
  assert.equal((await store.findSession('s', 10 * MINUTE, timeouts))?.user, undefined);
});

test('deleting an unknown session is harmless', async (t) => {
  const { store } = await fixture(t);
  await store.deleteSession('never-existed');
});
