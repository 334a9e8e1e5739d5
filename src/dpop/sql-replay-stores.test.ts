// What the SQL replay stores (SQLite, PostgreSQL) share beyond the ReplayStore contract: the
// table they create, the names they take, and the purge of expired rows, on real databases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigurationError } from '../core/errors.js';
import {
  randomKey,
  sqlReplayEngines,
  type SqlReplayDatabase,
} from '../../test/helpers/replay-store-engines.js';
import type { ReplayStore } from './replay-store.js';

const MINUTE = 60_000;

/** The default table's rows, expired and alive. */
async function rows(database: SqlReplayDatabase) {
  const now = Date.now();
  const [counts] = await database.sql(
    `SELECT count(CASE WHEN expires_at <= $1 THEN 1 END) AS expired, ` +
      `count(CASE WHEN expires_at > $2 THEN 1 END) AS alive FROM vouch_dpop_replay`,
    now,
    now,
  );
  return { expired: Number(counts?.['expired']), alive: Number(counts?.['alive']) };
}

/** Claims `count` new keys, one after the other. */
async function claimNew(store: ReplayStore, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    assert.equal(await store.claim(randomKey(), Date.now() + MINUTE), true);
  }
}

/** Waits (up to two seconds) for the expired rows to number `expected`: a purge may run apart. */
async function expiredRows(database: SqlReplayDatabase, expected: number): Promise<number> {
  let expired = (await rows(database)).expired;
  for (let waited = 0; expired !== expected && waited < 2000; waited += 10) {
    await sleep(10);
    expired = (await rows(database)).expired;
  }
  return expired;
}

for (const engine of sqlReplayEngines) {
  describe(`SQL replay store: ${engine.name}`, () => {
    it('creates its table and expiry index when missing, named by `table`, and shares an existing one', async (t) => {
      const database = await engine.create(t);
      if (database === undefined) return;
      const key = randomKey();
      assert.equal(await database.store({ table: 'proofs' }).claim(key, Date.now() + MINUTE), true);
      assert.equal(
        await database.store({ table: 'proofs' }).claim(key, Date.now() + MINUTE),
        false,
        'another instance, the same table',
      );
      assert.deepEqual(await database.sql('SELECT id FROM proofs'), [{ id: key }]);
      assert.ok((await database.indexes('proofs')).includes('proofs_expires_at'));
      assert.equal(
        await database.store({ table: 'other_proofs' }).claim(key, Date.now() + MINUTE),
        true,
        'another table',
      );
    });

    it('purges expired rows every hundredth claim, a thousand at most, never a live one', async (t) => {
      const database = await engine.create(t);
      if (database === undefined) return;
      const store = database.store();
      await claimNew(store, 1); // the table, and the first purge (of nothing)
      await database.sql(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) ` +
          `INSERT INTO vouch_dpop_replay (id, expires_at) SELECT 'old-' || i, $1 FROM n`,
        Date.now() - MINUTE,
      );
      await claimNew(store, 99);
      assert.deepEqual(await rows(database), { expired: 2500, alive: 100 }, 'no purge yet');
      await claimNew(store, 1);
      assert.equal(await expiredRows(database, 1500), 1500, 'the 101st claim purged 1000');
      await claimNew(store, 100);
      assert.equal(await expiredRows(database, 500), 500);
      await claimNew(store, 100);
      assert.equal(await expiredRows(database, 0), 0);
      assert.deepEqual(await rows(database), { expired: 0, alive: 301 });
    });

    it('refuses a table that is not a plain identifier, and a timeout that is not whole', async (t) => {
      const database = await engine.create(t);
      if (database === undefined) return;
      const tables: unknown[] = [
        '',
        '1st',
        'a-b',
        'a b',
        'x"; DROP TABLE y; --',
        'é',
        'x'.repeat(53),
        7,
      ];
      for (const table of tables) {
        assert.throws(
          () => database.store({ table: table as string }),
          ConfigurationError,
          String(table),
        );
      }
      for (const timeoutMs of [-1, 1.5, Number.NaN]) {
        assert.throws(() => database.store({ timeoutMs }), ConfigurationError, String(timeoutMs));
      }
      const longest = `_${'x'.repeat(51)}`;
      assert.equal(
        await database.store({ table: longest }).claim(randomKey(), Date.now() + MINUTE),
        true,
      );
      assert.ok((await database.indexes(longest)).includes(`${longest}_expires_at`));
    });
  });
}
