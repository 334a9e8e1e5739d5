import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { openExistingDatabase } from './open-existing-database.js';
import { migrate } from './migrate.js';

/** The default of {@link OpenDatabaseOptions.busyTimeoutMs}. */
export const DEFAULT_BUSY_TIMEOUT_MS = 2000;

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /**
   * How long an operation waits for another connection's lock before failing (default 2000 ms,
   * as long as PostgreSQL's statement timeout).
   * Opening and migrating wait in the driver; afterwards the driver never waits (a busy timeout
   * of 0), and the store waits between attempts without blocking (`whileLocked`).
   */
  readonly busyTimeoutMs?: number;
  /**
   * Whether a missing file (and its folder) is created (default `true`, as the service's first
   * start does). `false` for commands on existing data: anything but a database the service made
   * is refused with `NoDatabaseError`, untouched.
   */
  readonly create?: boolean;
}

/**
 * Opens (creating if needed, unless `create` is `false`) a SQLite database for the service and
 * brings its schema up to date. `:memory:` gives a private in-memory database, for tests.
 *
 * WAL lets readers proceed while a writer commits; `synchronous=FULL` fsyncs the log at every
 * commit so that a logout or a revocation survives a power cut, not only a crash.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database.Database {
  const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const onDisk = path !== ':memory:' && path !== '';
  let db: Database.Database;
  if (onDisk && options.create === false) {
    db = openExistingDatabase(path, timeout);
  } else {
    if (onDisk) createPrivately(path);
    db = new Database(path, { timeout });
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    db.pragma('busy_timeout = 0');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

// The file holds password hashes: create it (and its folder) readable by the owner only. SQLite
// gives the -wal and -shm files the permissions of the database file.
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}
