import { StoreUnavailableError } from '../core/errors.js';
import {
  claimStatement,
  purgeCadence,
  purgeStatement,
  sqlReplaySettings,
  type ReplayTable,
  type SqlReplayStoreOptions,
} from './replay-table.js';
import type { ReplayStore } from './replay-store.js';
import { timeLeft } from './time-left.js';

/**
 * What {@link sqliteReplayStore} needs of a SQLite connection: better-sqlite3's `Database` is
 * one as it is. (`node:sqlite`'s `DatabaseSync` fits too, but its errors do not say
 * `SQLITE_BUSY`: a lock it meets is a `StoreUnavailableError` at once, without waiting.)
 */
export interface SqliteReplayDatabase {
  prepare(source: string): {
    run(...parameters: (string | number)[]): { readonly changes: number | bigint };
  };
}

/** Options of {@link sqliteReplayStore}. */
export type SqliteReplayStoreOptions = SqlReplayStoreOptions;

/**
 * A {@link ReplayStore} in a SQLite database: every process opening the same file shares it, so
 * a proof used on one instance is a replay on all. Give it a connection of its own or the app's;
 * open the file in WAL mode (`db.pragma('journal_mode = WAL')`) so that claims never wait for
 * readers. Its table, claims and purges are as {@link SqlReplayStoreOptions} says.
 *
 * While another connection holds the write lock a claim tries again, without blocking the event
 * loop, until `timeoutMs`. (The driver's own busy timeout, better-sqlite3's `timeout` option,
 * waits first and blocks the loop meanwhile: a connection opened with `{ timeout: 0 }` leaves all
 * the waiting to the store.)
 *
 * @example const replay = sqliteReplayStore(new Database('replay.db'));
 */
export function sqliteReplayStore(
  db: SqliteReplayDatabase,
  options: SqliteReplayStoreOptions = {},
): ReplayStore {
  const { names, timeoutMs } = sqlReplaySettings(options, 'sqliteReplayStore', {
    mayNotWait: true,
  });
  const purgeWhenDue = purgeCadence();
  let statements: ReturnType<typeof prepare> | undefined;
  const attempt = (key: string, expiresAt: number): boolean => {
    const { claim, purge } = (statements ??= prepare(db, names));
    const now = Date.now();
    // Before the claim: a failure after it would be tried again, and meet its own row.
    purgeWhenDue((limit) => purge.run(now, limit));
    return Number(claim.run(key, Math.ceil(expiresAt), now).changes) === 1;
  };
  return {
    claim(key, expiresAt) {
      if (timeLeft(expiresAt, Date.now()) <= 0) return false;
      return whileLocked(() => attempt(key, expiresAt), timeoutMs);
    },
  };
}

/** Creates the table and its expiry index when missing, and prepares the two statements. */
function prepare(db: SqliteReplayDatabase, { table, index }: ReplayTable) {
  // WITHOUT ROWID: the key is the primary key, stored once, in the tree the lookups walk.
  db.prepare(
    `CREATE TABLE IF NOT EXISTS ${table} ` +
      `(id TEXT PRIMARY KEY NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID`,
  ).run();
  db.prepare(`CREATE INDEX IF NOT EXISTS ${index} ON ${table} (expires_at)`).run();
  const placeholder = () => '?';
  return {
    claim: db.prepare(claimStatement(table, placeholder)),
    purge: db.prepare(purgeStatement(table, placeholder)),
  };
}

/**
 * Runs `operation`; while another connection holds a lock (`SQLITE_BUSY…`, `SQLITE_LOCKED…`),
 * again after a pause (1 ms, doubling up to 50) until `boundMs` have passed. A synchronous
 * driver would block the event loop for its busy timeout; here the wait leaves it free. SQLite
 * rolled the failed statement back, so running it again is safe. Every failure that ends it is a
 * `StoreUnavailableError`: the store could not tell whether the key was used.
 */
async function whileLocked<T>(operation: () => T, boundMs: number): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (let pause = 1; ; pause = Math.min(2 * pause, 50)) {
    try {
      return operation();
    } catch (error) {
      const remaining = deadline - Date.now();
      if (!isLocked(error)) {
        throw new StoreUnavailableError('the DPoP replay database failed', { cause: error });
      }
      if (remaining <= 0) {
        throw new StoreUnavailableError(`the DPoP replay database stayed locked ${boundMs} ms`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, remaining)));
    }
  }
}

function isLocked(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}
