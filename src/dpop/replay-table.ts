// What the SQL replay stores (SQLite, PostgreSQL) share: their options, the table's name, when
// to purge and how much, and the statements that claim a key and purge expired keys, the same
// text on both engines but for placeholders.
import { wholeNumber } from '../core/configuration-checks.js';
import { ConfigurationError } from '../core/errors.js';

/**
 * Options of the SQL replay stores, `sqliteReplayStore` and `postgresReplayStore`. Both keep the
 * proofs in one table: a claim is one statement (an insert that takes over an expired row, and
 * nothing else), the first claim and every hundredth after it also delete up to a thousand
 * expired rows, and any failure is a `StoreUnavailableError` (503), never a fresh proof.
 */
export interface SqlReplayStoreOptions {
  /**
   * The table proofs are kept in, created on the first claim when missing (default
   * `vouch_dpop_replay`).
   */
  readonly table?: string;
  /**
   * How long a claim may wait for the database (for another connection's lock on SQLite, for
   * the answer on PostgreSQL) before answering `StoreUnavailableError` (503), in milliseconds
   * (default 2000; 0, on SQLite only, never waits).
   */
  readonly timeoutMs?: number;
}

/** What a SQL replay store settles at construction. */
export interface SqlReplaySettings {
  readonly names: ReplayTable;
  readonly timeoutMs: number;
}

/** Checks `store`'s options (a ConfigurationError naming the wrong one) and settles them. */
export function sqlReplaySettings(
  options: SqlReplayStoreOptions,
  store: string,
  { mayNotWait }: { readonly mayNotWait: boolean },
): SqlReplaySettings {
  const names = replayTable(options.table, `${store} table`);
  const timeoutMs = wholeNumber(options.timeoutMs, 2000, `${store} timeoutMs`, {
    unit: 'milliseconds',
    positive: !mayNotWait,
  });
  return { names, timeoutMs };
}

/** The table a SQL replay store keeps proofs in unless told otherwise. */
export const DEFAULT_REPLAY_TABLE = 'vouch_dpop_replay';

/**
 * Claims between two purges of expired rows, and the rows one purge deletes at most. A claim
 * adds one row at most and a purge may delete ten times as many, so a backlog (after a restart,
 * or a burst) drains while no request pays for more than one bounded index-range delete.
 */
const PURGE_EVERY = 100;
const PURGE_LIMIT = 1000;

/**
 * One store's purge cadence: called at every claim with that claim's purge of expired rows, it
 * runs the first claim's and every {@link PURGE_EVERY}th after, given {@link PURGE_LIMIT}.
 */
export function purgeCadence(): (purge: (limit: number) => unknown) => void {
  let claims = 0;
  return (purge) => {
    if (claims++ % PURGE_EVERY === 0) purge(PURGE_LIMIT);
  };
}

// Unquoted-identifier characters; 52 at most, so that the index's name fits PostgreSQL's 63.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,51}$/;

/** A replay table's name and its expiry index's, each quoted for SQL. */
export interface ReplayTable {
  readonly table: string;
  readonly index: string;
}

/**
 * The names of the table (`name`, or {@link DEFAULT_REPLAY_TABLE} when left out) and its index;
 * a ConfigurationError unless `name` is a plain identifier, since it is written into statements.
 */
function replayTable(name: string | undefined, what: string): ReplayTable {
  const table = name ?? DEFAULT_REPLAY_TABLE;
  if (typeof table !== 'string' || !IDENTIFIER.test(table)) {
    throw new ConfigurationError(
      `${what} ${JSON.stringify(table)} must be letters, digits and _ (not a digit first), 52 at most`,
    );
  }
  return { table: `"${table}"`, index: `"${table}_expires_at"` };
}

/** The engine's placeholder for the statement's `position`th parameter (`?`, or `$1`, `$2`…). */
export type Placeholder = (position: number) => string;

/**
 * Inserts a key, or takes over its row when that has expired, in one atomic statement: one row
 * changes exactly when the key was free. Parameters: the key, its expiry, now (milliseconds).
 */
export function claimStatement(table: string, $: Placeholder): string {
  return (
    `INSERT INTO ${table} (id, expires_at) VALUES (${$(1)}, ${$(2)}) ` +
    `ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at ` +
    `WHERE ${table}.expires_at <= ${$(3)}`
  );
}

/**
 * Deletes at most a limit of expired rows, found through the expiry index. Parameters: now, the
 * limit. `lock` ends the inner select (PostgreSQL skips rows a claim is taking over).
 */
export function purgeStatement(table: string, $: Placeholder, lock = ''): string {
  return (
    `DELETE FROM ${table} WHERE id IN ` +
    `(SELECT id FROM ${table} WHERE expires_at <= ${$(1)} LIMIT ${$(2)}${lock})`
  );
}
