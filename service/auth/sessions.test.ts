import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSqliteStore } from '../store/sqlite/open-sqlite-store.js';
import { storeSessions } from './sessions.js';

test("sessions start only from a checked password, and only while it is the user's", async (t) => {
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'hash', 0);
  const sessions = storeSessions(store, { idleMs: 60_000, absoluteMs: 60_000 }, () => 1);

  const id = await sessions.start({ user: alice, passwordHash: 'hash' });
  assert.ok(id !== undefined);
  assert.deepEqual(await sessions.get(id), alice);
  assert.equal(await sessions.start({ user: alice, passwordHash: 'an older hash' }), undefined);
  // vouch's create names a user alone: no password was checked, so no session starts.
  await assert.rejects(sessions.create(alice), /starts from a checked password/);
  await sessions.destroy(id);
  assert.equal(await sessions.get(id), undefined);
});
