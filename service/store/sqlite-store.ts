import type Database from 'better-sqlite3';
import { findLiveSession } from './find-live-session.js';
import { createApplicationRepository } from './sqlite/application-repository.js';
import { openDatabase, type OpenDatabaseOptions } from './sqlite/open-database.js';
import { createSessionRepository } from './sqlite/session-repository.js';
import { createSettingRepository } from './sqlite/setting-repository.js';
import { toStoreError } from './sqlite/to-store-error.js';
import { createTokenRepository } from './sqlite/token-repository.js';
import { watchForeignCommits } from './sqlite/watch-foreign-commits.js';
import { createUserRepository } from './sqlite/user-repository.js';
import type { Store } from './store.js';

/** Options of {@link openSqliteStore}. */
export type SqliteStoreOptions = OpenDatabaseOptions;

/**
 * The {@link Store} over an embedded SQLite file (or `:memory:`), created and migrated if needed.
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
  const users = createUserRepository(db);
  const tokens = createTokenRepository(db);
  const applications = createApplicationRepository(db);
  const sessions = createSessionRepository(db);
  const settings = createSettingRepository(db);
  const ping = db.prepare('SELECT 1 FROM settings LIMIT 1');
  // Stopped when the store closes: a watcher must never settle a notice on a closed connection.
  const watchers = new Set<() => void>();

  const call = <T>(operation: () => T): Promise<T> => {
    try {
      return Promise.resolve(operation());
    } catch (error) {
      return Promise.reject(toStoreError(error, db));
    }
  };

  return {
    ping: () =>
      call(() => {
        ping.get();
      }),
    close: () =>
      call(() => {
        for (const stop of watchers) stop();
        if (!db.open) return;
        db.pragma('optimize');
        db.close();
      }),

    createUser: (username, passwordHash, now) =>
      call(() => users.create(username, passwordHash, now)),
    findUserCredentials: (username) => call(() => users.findCredentials(username)),
    listUsers: () => call(() => users.list()),
    countUsers: () => call(() => users.count()),

    createToken: (tokenDigest, userId, expiresAt, now) =>
      call(() => {
        tokens.create(tokenDigest, userId, expiresAt, now);
      }),
    findToken: (tokenDigest, now) => call(() => tokens.findLive(tokenDigest, now)),
    revokeToken: (tokenDigest, now) => call(() => tokens.revoke(tokenDigest, now)),

    createApplication: (name, keyPrefix, keyDigest, now) =>
      call(() => applications.create(name, keyPrefix, keyDigest, now)),
    findApplicationByKey: (keyDigest) => call(() => applications.findByKey(keyDigest)),
    listApplications: () => call(() => applications.list()),
    revokeApplication: (id, now) => call(() => applications.revoke(id, now)),

    createSession: (sessionDigest, userId, now) =>
      call(() => {
        sessions.create(sessionDigest, userId, now);
      }),
    findSession: (sessionDigest, now, timeouts) =>
      findLiveSession(sessions, sessionDigest, now, timeouts).catch((error: unknown) => {
        throw toStoreError(error, db);
      }),
    deleteSession: (sessionDigest) =>
      call(() => {
        sessions.remove(sessionDigest);
      }),

    getSetting: (name) => call(() => settings.get(name)),
    setSettingIfAbsent: (name, value) => call(() => settings.setIfAbsent(name, value)),

    watchForeignCommits(listener, onError) {
      const stop = watchForeignCommits(db, path, listener, (error) => {
        onError(toStoreError(error, db));
      });
      watchers.add(stop);
      return () => {
        watchers.delete(stop);
        stop();
      };
    },
  };
}
