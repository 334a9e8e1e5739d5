import type { Pool, PoolClient } from 'pg';
import { checkNumbering, migrations, tooNew, type Migration } from '../migrations.js';

// Any constant shared by every instance of the service: the key of the advisory lock under which
// one of several instances starting together migrates while the others wait.
const MIGRATION_LOCK = 0x766f756368; // 'vouch'

/**
 * Brings a PostgreSQL database up to the latest schema. Each pending step runs in its own
 * transaction, with the record of its version, under a transaction-scoped advisory lock: when
 * several instances start together one applies each step and the others find it applied, and a
 * failed step leaves the database at the previous whole version. Returns the version reached.
 * Refuses a database newer than this program knows.
 */
export async function migratePostgres(
  pool: Pool,
  steps: readonly Migration[] = migrations,
): Promise<number> {
  checkNumbering(steps);
  const latest = steps.length;
  for (;;) {
    const client = await pool.connect();
    let done: number | undefined;
    try {
      done = await applyNext(client, steps);
      client.release();
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (done !== undefined) {
      if (done > latest) throw tooNew(done, latest);
      return done;
    }
  }
}

/** Applies the next pending step; returns the version when none was pending. */
async function applyNext(
  client: PoolClient,
  steps: readonly Migration[],
): Promise<number | undefined> {
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    description text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const current = await schemaVersion(client);
  const step = steps[current];
  if (current >= steps.length || step === undefined) {
    await client.query('COMMIT');
    return current;
  }
  if (step.postgres !== '') await client.query(step.postgres);
  await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
    step.version,
    step.description,
  ]);
  await client.query('COMMIT');
  return undefined;
}

/** The schema version recorded in the database (0 for a new one). */
export async function schemaVersion(client: Pick<Pool, 'query'>): Promise<number> {
  const result = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return result.rows[0]?.version ?? 0;
}
