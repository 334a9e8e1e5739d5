import { StoreUnavailableError } from 'vouch';
import { createApplicationRepository } from './application-repository.js';
import { listenForChanges, type ListenOptions } from './listen-for-changes.js';
import { migratePostgres } from './migrate.js';
import {
  connectionConfig,
  DEFAULT_POSTGRES_TIMEOUT_MS,
  openPool,
  type PoolOptions,
} from './open-pool.js';
import { createSessionRepository } from './session-repository.js';
import { createSettingRepository } from './setting-repository.js';
import { toStoreError } from './to-store-error.js';
import { createTokenRepository } from './token-repository.js';
import { createUserRepository } from './user-repository.js';
import { storeOverRepositories, type Repositories } from '../repository-store.js';
import type { Store } from '../store.js';

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions extends PoolOptions {
  /** How changes made elsewhere are listened for. */
  readonly listen?: ListenOptions;
}

/**
 * The {@link Store} over a PostgreSQL database (`postgres://user:password@host:port/database`),
 * migrated if needed. Statements are parameterised and prepared once per connection, over a
 * bounded pool with connect, wait and statement timeouts: an unreachable, refusing or slow server
 * is `StoreUnavailableError` within the timeout, never a hang, and the pool reconnects by itself
 * once the server is back. Several instances may share the database: changes that take a
 * credential away are announced by the schema's triggers and heard with LISTEN.
 *
 * @example const store = await openPostgresStore('postgres://vouch@db.internal/vouch');
 */
export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<Store> {
  const pool = openPool(url, options);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw toStoreError(error);
  }
  const listenConfig = connectionConfig(url, options.timeoutMs ?? DEFAULT_POSTGRES_TIMEOUT_MS);
  // Stopped when the store closes, with their connections.
  const listeners = new Set<() => void>();
  let closed = false;

  const repositories: Repositories = {
    users: createUserRepository(pool),
    tokens: createTokenRepository(pool),
    applications: createApplicationRepository(pool),
    sessions: createSessionRepository(pool),
    settings: createSettingRepository(pool),
  };
  return storeOverRepositories(repositories, {
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      for (const stop of listeners) stop();
      listeners.clear();
      if (closed) return;
      closed = true;
      await pool.end();
    },
    watchChanges(watcher) {
      if (closed) {
        watcher.lost(new StoreUnavailableError('database closed'));
        return () => {};
      }
      const stop = listenForChanges(listenConfig, watcher, options.listen);
      listeners.add(stop);
      return () => {
        listeners.delete(stop);
        stop();
      };
    },
    toStoreError,
  });
}
