import Database from 'better-sqlite3';
import { StoreUnavailableError } from 'vouch';

// Result codes meaning "the engine cannot answer now", as opposed to a bug in a query: lock
// contention past the busy timeout, disk trouble, a file that cannot be opened or written.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL|READONLY|NOLFS|NOMEM)/;

/**
 * Translates what better-sqlite3 throws into the store contract: `StoreUnavailableError` (503) for
 * contention, I/O trouble and a closed connection; any other error unchanged (a bug, so a 500).
 */
export function toStoreError(error: unknown, db?: Pick<Database.Database, 'open'>): Error {
  if (error instanceof Database.SqliteError && UNAVAILABLE.test(error.code)) {
    return new StoreUnavailableError(`database unavailable (${error.code})`, { cause: error });
  }
  if (db !== undefined && !db.open) {
    return new StoreUnavailableError('database closed', { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}
