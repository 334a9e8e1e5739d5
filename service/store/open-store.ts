import { ConfigurationError } from 'vouch';
import { resolve } from 'node:path';
import { cacheCredentials, type CredentialCacheOptions } from './credential-cache.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
import type { Store } from './store.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions extends SqliteStoreOptions {
  /** Keep found credentials in memory (see `cacheCredentials`); `false` reads the database every time. */
  readonly credentialCache?: CredentialCacheOptions | false;
}

/** Where the data lives when `DATABASE_URL` is not set. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/vouch.db';

/**
 * Opens the store a `DATABASE_URL` names: `sqlite:./relative/path` (from the working directory),
 * `sqlite:/absolute/path` or `sqlite::memory:`. Anything else is a `ConfigurationError` naming
 * `DATABASE_URL` (never echoing the URL, which may hold a password). Found credentials are kept
 * in memory unless `credentialCache` is `false`.
 *
 * @example const store = await openStore(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
 */
export function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const { credentialCache = { ttlMs: DEFAULT_CACHE_TTL_MS }, ...engine } = options;
  return new Promise((resolve) => {
    const store = openSqliteStore(sqlitePath(databaseUrl), engine);
    resolve(credentialCache === false ? store : cacheCredentials(store, credentialCache));
  });
}

/** How long a found credential is kept in memory at most, unless configured otherwise. */
export const DEFAULT_CACHE_TTL_MS = 10_000;

/** The `credentialCache` option for a configured lifetime (`CREDENTIAL_CACHE_SECONDS`): 0 is off. */
export function credentialCache(
  ttlMs: number,
  onDisabled?: (error: Error) => void,
): CredentialCacheOptions | false {
  if (ttlMs === 0) return false;
  return onDisabled === undefined ? { ttlMs } : { ttlMs, onDisabled };
}

/** The file a `sqlite:` URL names, resolved from the working directory, or `:memory:`. */
export function sqlitePath(databaseUrl: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(databaseUrl)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    throw new ConfigurationError(
      'DATABASE_URL must look like sqlite:./data/vouch.db, sqlite:/absolute/path or sqlite::memory:',
    );
  }
  if (scheme !== 'sqlite') {
    const engine = ['postgres', 'postgresql', 'redis', 'rediss'].includes(scheme)
      ? `${scheme.startsWith('postgres') ? 'PostgreSQL' : 'Redis'} is not supported yet`
      : `the scheme "${scheme}:" is not supported`;
    throw new ConfigurationError(
      `DATABASE_URL: ${engine}; use sqlite:<path> (for example sqlite:./data/vouch.db)`,
    );
  }
  // Also accept the sqlite:///absolute and sqlite://./relative spellings of other tools.
  let path = databaseUrl.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (path === ':memory:') return path;
  if (path === '' || path.includes('\0')) {
    throw new ConfigurationError('DATABASE_URL: sqlite: needs a file path, or :memory:');
  }
  return resolve(path);
}
