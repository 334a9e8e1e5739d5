// The purge of expired credentials over a real SQLite store: it runs at once and at every turn,
// deletes only what died before the grace period, logs counts (never a digest), and a purge that
// fails is logged and tried again.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { until } from '../../test/helpers/wait.js';
import { purgeExpiredEvery } from './purge-expired.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import type { Store } from './store.js';

const HOUR = 3_600_000;
const timeouts = { idleMs: HOUR, absoluteMs: 12 * HOUR };

/** A log that keeps what it is given. */
function recordingLog() {
  const entries: { level: 'info' | 'warn'; fields: object; message: string }[] = [];
  return {
    entries,
    info(fields: object, message: string) {
      entries.push({ level: 'info', fields, message });
    },
    warn(fields: object, message: string) {
      entries.push({ level: 'warn', fields, message });
    },
  };
}

/** A store with alice, counting the purges asked of it. */
async function storeWithAlice(t: TestContext) {
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'h', 0);
  let purges = 0;
  const counting: Pick<Store, 'purgeExpired'> = {
    purgeExpired(before, given) {
      purges += 1;
      return store.purgeExpired(before, given);
    },
  };
  return { store, alice, counting, purges: () => purges };
}

test('purges at once and at every turn, what died a grace period ago; logs counts only', async (t) => {
  const { store, alice, counting, purges } = await storeWithAlice(t);
  const now = 100 * HOUR;
  await store.createToken('long-dead', alice.id, now - 3 * HOUR, 0);
  await store.createToken('just-dead', alice.id, now - HOUR, 0);
  await store.createToken('live', alice.id, now + HOUR, 0);
  await store.createSession('long-idle', alice.id, 'h', now - 4 * HOUR);
  const log = recordingLog();
  const stop = purgeExpiredEvery(
    { store: counting, timeouts, now: () => now, log },
    { intervalMs: 20, graceMs: 2 * HOUR },
  );
  t.after(stop);
  await until(() => log.entries.length > 0, 'the first purge');
  assert.deepEqual(log.entries, [
    { level: 'info', fields: { tokens: 1, sessions: 1 }, message: 'expired credentials purged' },
  ]);
  await until(() => purges() >= 4, 'later purges');
  assert.equal(log.entries.length, 1, 'a purge that deletes nothing logs nothing');
  await stop();
  // What died within the grace period was kept: a purge without one finds it.
  assert.deepEqual(await store.purgeExpired(now, timeouts), { tokens: 1, sessions: 0 });
  assert.equal((await store.findToken('live', now))?.user.username, 'alice');
  const after = purges();
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(purges(), after, 'none once stopped');
});

test('a day after death by default: a token dead 23 hours is kept, one dead 25 hours goes', async (t) => {
  const { store, alice, counting } = await storeWithAlice(t);
  const now = 100 * HOUR;
  await store.createToken('dead-23h', alice.id, now - 23 * HOUR, 0);
  await store.createToken('dead-25h', alice.id, now - 25 * HOUR, 0);
  const log = recordingLog();
  const stop = purgeExpiredEvery({ store: counting, timeouts, now: () => now, log });
  t.after(stop);
  await until(() => log.entries.length > 0, 'the first purge');
  assert.deepEqual(log.entries[0]?.fields, { tokens: 1, sessions: 0 });
});

test('a purge that fails is logged, and tried again at the next turn', async (t) => {
  const store = openSqliteStore(':memory:');
  await store.close();
  const log = recordingLog();
  const stop = purgeExpiredEvery(
    { store, timeouts, now: Date.now, log },
    { intervalMs: 20, graceMs: 0 },
  );
  t.after(stop);
  await until(() => log.entries.length >= 2, 'two failures');
  for (const entry of log.entries) {
    assert.equal(entry.level, 'warn');
    assert.equal(entry.message, 'purging expired credentials failed; tried again later');
    assert.ok((entry.fields as { err?: unknown }).err instanceof Error);
  }
});

test('a purge still under way is not doubled, and stopping waits for it', async (t) => {
  let started = 0;
  let finish = () => {};
  const slow: Pick<Store, 'purgeExpired'> = {
    purgeExpired() {
      started += 1;
      return new Promise((resolve) => {
        finish = () => {
          resolve({ tokens: 0, sessions: 0 });
        };
      });
    },
  };
  const stop = purgeExpiredEvery(
    { store: slow, timeouts, now: Date.now, log: recordingLog() },
    { intervalMs: 10 },
  );
  t.after(() => {
    finish();
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(started, 1, 'ten turns, one purge');
  let stopped = false;
  const stopping = stop().then(() => (stopped = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(stopped, false);
  finish();
  await stopping;
  assert.equal(stopped, true);
});
