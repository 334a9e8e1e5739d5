import {
  claimStatement,
  purgeCadence,
  purgeStatement,
  sqlReplaySettings,
  type ReplayTable,
  type SqlReplayStoreOptions,
} from './replay-table.js';
import type { ReplayStore } from './replay-store.js';
import { storeAnswer } from './store-answer.js';
import { timeLeft } from './time-left.js';

/**
 * What {@link postgresReplayStore} needs of a PostgreSQL client: `query(text, values)` answering
 * the number of rows a statement changed. `pg`'s `Pool` (and `Client`) is one as it is.
 */
export interface PostgresReplayPool {
  query(text: string, values?: unknown[]): Promise<{ readonly rowCount: number | null }>;
}

/** Options of {@link postgresReplayStore}. */
export type PostgresReplayStoreOptions = SqlReplayStoreOptions;

/**
 * A {@link ReplayStore} in a PostgreSQL database: every instance using it sees each proof once.
 * Its table, claims and purges are as {@link SqlReplayStoreOptions} says; a claim does not wait
 * for the purge it starts.
 *
 * Instances starting together take turns creating the table (through an advisory lock); a role
 * without the right to create it needs it made beforehand:
 * `CREATE TABLE vouch_dpop_replay (id text PRIMARY KEY, expires_at bigint NOT NULL)` and an index
 * on `expires_at`.
 *
 * @example const replay = postgresReplayStore(new pg.Pool({ connectionString }));
 */
export function postgresReplayStore(
  pool: PostgresReplayPool,
  options: PostgresReplayStoreOptions = {},
): ReplayStore {
  const { names, timeoutMs } = sqlReplaySettings(options, 'postgresReplayStore', {
    mayNotWait: false,
  });
  const purgeWhenDue = purgeCadence();
  const claim = claimStatement(names.table, (position) => `$${position}`);
  const purge = purgeStatement(
    names.table,
    (position) => `$${position}`,
    ' FOR UPDATE SKIP LOCKED',
  );
  let created: Promise<unknown> | undefined;
  const attempt = async (key: string, expiresAt: number): Promise<boolean> => {
    created ??= pool.query(createStatement(names)).catch((error: unknown) => {
      created = undefined;
      throw error;
    });
    await created;
    const now = Date.now();
    // The claims' own queries report an outage; a purge that fails is tried again later.
    purgeWhenDue((limit) => pool.query(purge, [now, limit]).catch(() => {}));
    // A bigint column: a fraction of a millisecond would be a syntax error.
    const { rowCount } = await pool.query(claim, [key, Math.ceil(expiresAt), now]);
    return rowCount === 1;
  };
  return {
    async claim(key, expiresAt) {
      if (timeLeft(expiresAt, Date.now()) <= 0) return false;
      return storeAnswer(
        () => attempt(key, expiresAt),
        timeoutMs,
        'the DPoP replay database did not answer',
      );
    },
  };
}

/**
 * Creates the table and its expiry index unless the table exists (checked first, so that a role
 * without the right to create needs none when it does), one instance at a time.
 */
function createStatement({ table, index }: ReplayTable): string {
  return `DO $$ BEGIN
  IF to_regclass('${table}') IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('vouch replay table ${table}'));
    CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, expires_at bigint NOT NULL);
    CREATE INDEX IF NOT EXISTS ${index} ON ${table} (expires_at);
  END IF;
END $$`;
}
