import { ConfigurationError } from 'vouch';
import { resolve } from 'node:path';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
import type { Store } from './store.js';

/** Where the data lives when `DATABASE_URL` is not set. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/vouch.db';

/**
 * Opens the store a `DATABASE_URL` names: `sqlite:./relative/path` (from the working directory),
 * `sqlite:/absolute/path` or `sqlite::memory:`. Anything else is a `ConfigurationError` naming
 * `DATABASE_URL` (never echoing the URL, which may hold a password).
 *
 * @example const store = await openStore(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
 */
export function openStore(databaseUrl: string, options: SqliteStoreOptions = {}): Promise<Store> {
  return new Promise((resolve) => {
    resolve(openSqliteStore(sqlitePath(databaseUrl), options));
  });
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
