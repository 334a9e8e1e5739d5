import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { StoreUnavailableError } from '../core/errors.js';
import { randomKey } from '../../test/helpers/replay-store-engines.js';
import { asAdmin, postgresDatabase } from '../../test/helpers/services.js';
import { postgresReplayStore } from './postgres-replay-store.js';

const MINUTE = 60_000;

/**
 * A maker of pools, all ended when the test ends: called before the database is made, so that
 * they end before it is dropped.
 */
function pools(t: TestContext): (url: string) => pg.Pool {
  const made: pg.Pool[] = [];
  t.after(() => Promise.all(made.map((one) => one.end())));
  return (url) => {
    const one = new pg.Pool({ connectionString: url });
    one.on('error', () => {});
    made.push(one);
    return one;
  };
}

/** `url` naming another database, or another user. */
function other(url: string, { database, user }: { database?: string; user?: string }): string {
  const changed = new URL(url);
  if (database !== undefined) changed.pathname = `/${database}`;
  if (user !== undefined) changed.username = user;
  return changed.toString();
}

describe('postgresReplayStore', () => {
  it('instances starting together create the table once, and all claim through it', async (t) => {
    const pool = pools(t);
    const database = await postgresDatabase(t);
    if (database === undefined) return;
    const key = randomKey();
    const expiresAt = Date.now() + MINUTE;
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () =>
        postgresReplayStore(pool(database.url)).claim(key, expiresAt),
      ),
    );
    assert.deepEqual(answers.filter(Boolean).length, 1, 'none failed, one fresh');
  });

  it('a database that is not there yet is StoreUnavailableError; once it is, the store works', async (t) => {
    const name = `vouch_test_${randomBytes(6).toString('hex')}`;
    const pool = pools(t);
    const database = await postgresDatabase(t);
    if (database === undefined) return;
    t.after(() => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const store = postgresReplayStore(pool(other(database.url, { database: name })));
    const key = randomKey();
    await assert.rejects(async () => store.claim(key, Date.now() + MINUTE), StoreUnavailableError);
    await asAdmin(`CREATE DATABASE ${name}`);
    assert.equal(await store.claim(key, Date.now() + MINUTE), true, 'the table made at last');
    assert.equal(await store.claim(key, Date.now() + MINUTE), false);
  });

  it('a claim held up past timeoutMs (by a lock on its key) is StoreUnavailableError', async (t) => {
    const pool = pools(t);
    const database = await postgresDatabase(t);
    if (database === undefined) return;
    assert.equal(
      await postgresReplayStore(pool(database.url)).claim(randomKey(), Date.now() + MINUTE),
      true,
      'table made',
    );
    const store = postgresReplayStore(pool(database.url), { timeoutMs: 100 });
    const holder = await pool(database.url).connect();
    const key = randomKey();
    await holder.query('BEGIN');
    await holder.query('INSERT INTO vouch_dpop_replay (id, expires_at) VALUES ($1, $2)', [
      key,
      Date.now() + MINUTE,
    ]);
    const started = Date.now();
    await assert.rejects(
      async () => store.claim(key, Date.now() + MINUTE),
      (error) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.match(String(error.cause), /no answer within 100 ms/);
        return true;
      },
    );
    assert.ok(Date.now() - started < 1000, 'not held longer');
    await holder.query('ROLLBACK');
    holder.release();
  });

  it('a role that may not create tables uses one made beforehand', async (t) => {
    const role = `vouch_replay_${randomBytes(6).toString('hex')}`;
    const pool = pools(t);
    const database = await postgresDatabase(t);
    if (database === undefined) return;
    t.after(() => asAdmin(`DROP ROLE IF EXISTS ${role}`));
    const owner = pool(database.url);
    await owner.query(`CREATE ROLE ${role} LOGIN`);
    await owner.query(
      'CREATE TABLE vouch_dpop_replay (id text PRIMARY KEY, expires_at bigint NOT NULL)',
    );
    await owner.query(
      'CREATE INDEX vouch_dpop_replay_expires_at ON vouch_dpop_replay (expires_at)',
    );
    await owner.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON vouch_dpop_replay TO ${role}`);
    const limited = pool(other(database.url, { user: role }));
    await assert.rejects(
      limited.query('CREATE TABLE IF NOT EXISTS vouch_dpop_replay (id text)'),
      /permission denied for schema public/,
      'the role may not create, not even a table that exists',
    );
    const key = randomKey();
    const store = postgresReplayStore(limited);
    assert.equal(await store.claim(key, Date.now() + MINUTE), true);
    assert.equal(await store.claim(key, Date.now() + MINUTE), false);
  });
});
