import type Database from 'better-sqlite3';
import { storeOverRepositories, type Repositories } from '../repository-store.js';
import { createApplicationRepository } from './application-repository.js';
import {
  DEFAULT_BUSY_TIMEOUT_MS,
  openDatabase,
  type OpenDatabaseOptions,
} from './open-database.js';
import { createSessionRepository } from './session-repository.js';
import { createSettingRepository } from './setting-repository.js';
import { toStoreError } from './to-store-error.js';
import { createTokenRepository } from './token-repository.js';
import { watchForeignCommits } from './watch-foreign-commits.js';
import { whileLocked } from './while-locked.js';
import { createUserRepository } from './user-repository.js';
import type { Store } from '../store.js';

/** Options of {@link openSqliteStore}. */
export type SqliteStoreOptions = OpenDatabaseOptions;

/**
 * The {@link Store} over an embedded SQLite file (or `:memory:`), created (unless `create` is
 * `false`) and migrated if needed.
 * One connection, every statement prepared once; better-sqlite3 is synchronous, so each call
 * completes before the next starts and single statements need no explicit transaction.
 * Throws `StoreUnavailableError` when the file cannot be opened or locked.
 *
 * @example const store = openSqliteStore('./data/vouch.db');
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  let db: Database.Database;
  try {
    db = openDatabase(path, options);
  } catch (error) {
    throw toStoreError(error);
  }
  const ping = db.prepare('SELECT 1 FROM settings LIMIT 1');
  // Stopped when the store closes: a watcher must never settle a notice on a closed connection.
  const watchers = new Set<() => void>();

  const repositories: Repositories = {
    users: createUserRepository(db),
    tokens: createTokenRepository(db),
    applications: createApplicationRepository(db),
    sessions: createSessionRepository(db),
    settings: createSettingRepository(db),
  };
  return storeOverRepositories(repositories, {
    ping() {
      ping.get();
    },
    close() {
      for (const stop of watchers) stop();
      if (!db.open) return;
      db.pragma('optimize');
      db.close();
    },
    watchChanges(watcher) {
      const stop = watchForeignCommits(db, path, watcher, (error) => toStoreError(error, db));
      watchers.add(stop);
      return () => {
        watchers.delete(stop);
        stop();
      };
    },
    toStoreError: (error) => toStoreError(error, db),
    // The driver waits for a lock only briefly; the rest of the bound is waited here, unblocked.
    retry: (operation) => whileLocked(operation, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS),
  });
}
