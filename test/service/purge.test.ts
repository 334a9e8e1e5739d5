// Expired tokens and dead sessions leave the service's database (a real SQLite file), deleted by
// the running service itself, while what still works stays.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { it } from 'node:test';
import { until } from '../helpers/wait.js';
import { addUser, bearer, getToken, login, manualClock, startService } from './helpers.js';

it('a token past its lifetime and a session past its timeout are deleted as the service runs', async (t) => {
  const clock = manualClock();
  const service = await startService(t, {
    now: clock.now,
    purge: { intervalMs: 50, graceMs: 0 },
  });
  await addUser(service.store, 'alice', 'wonderland');
  const token = await getToken(service, 'alice', 'wonderland');
  await login(service, 'alice', 'wonderland');
  const db = new Database(service.file, { readonly: true });
  t.after(() => db.close());
  const rows = (table: 'tokens' | 'sessions') =>
    db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get();
  // Purges have run meanwhile: nothing live goes.
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual([rows('tokens'), rows('sessions')], [1, 1]);
  const { tokenTtlSeconds, sessionIdleMs } = service.config;
  clock.advance(Math.max(tokenTtlSeconds * 1000, sessionIdleMs));
  await until(() => rows('tokens') === 0 && rows('sessions') === 0, 'both purged');
  const refused = await service.fetch('/api/bearer', { headers: bearer(token) });
  await refused.arrayBuffer();
  assert.equal(refused.status, 401);
  // A new sign-in works as before.
  assert.ok((await getToken(service, 'alice', 'wonderland')).length > 0);
  assert.equal(rows('tokens'), 1);
});
