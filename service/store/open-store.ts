import { ConfigurationError } from 'vouch';
import { resolve } from 'node:path';
import { shareChangesOverRedis } from './share-changes-over-redis.js';
import type { RedisConnection } from '../redis/open-redis.js';
import { cacheCredentials, type CredentialCacheOptions } from './credential-cache.js';
import { openPostgresStore } from './postgres/open-postgres-store.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import type { Store } from './store.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /**
   * Share revocations and logouts with the other instances over this Redis connection's pub/sub,
   * instead of the engine's own watch.
   */
  readonly redis?: RedisConnection | undefined;
  /** Keep found credentials in memory (see `cacheCredentials`); `false` reads the database every time. */
  readonly credentialCache?: CredentialCacheOptions | false;
  /**
   * Whether a SQLite file that does not exist is created (default `true`, for the service's first
   * start). `false` (the CLI) refuses anything but a database the service made, with
   * `NoDatabaseError`, creating and changing nothing. A PostgreSQL database is never created here:
   * one that does not exist is `StoreUnavailableError` either way.
   */
  readonly create?: boolean;
}

/** Where the data lives when `DATABASE_URL` is not set. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/vouch.db';

/** The engines a `DATABASE_URL` can name. */
export type DatabaseEngine = 'sqlite' | 'postgres';

/**
 * Opens (creating, unless `create` is `false`, and migrating as needed) the store a `DATABASE_URL` names:
 * `sqlite:./relative/path` (from the working directory), `sqlite:/absolute/path`,
 * `sqlite::memory:`, or `postgres://user:password@host:port/database` (also `postgresql://`).
 * A URL of another form is a `ConfigurationError` naming `DATABASE_URL` (never echoing the URL,
 * which may hold a password); a server that cannot be reached is `StoreUnavailableError`. Found
 * credentials are kept in memory unless `credentialCache` is `false`.
 *
 * @example const store = await openStore(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
 */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const { credentialCache = { ttlMs: DEFAULT_CACHE_TTL_MS }, redis, create = true } = options;
  const engine =
    databaseEngine(databaseUrl) === 'postgres'
      ? await openPostgresStore(databaseUrl)
      : openSqliteStore(sqlitePath(databaseUrl), { create });
  const shared = redis === undefined ? engine : shareChangesOverRedis(engine, redis);
  return credentialCache === false ? shared : cacheCredentials(shared, credentialCache);
}

/** How long a found credential is kept in memory at most, unless configured otherwise. */
export const DEFAULT_CACHE_TTL_MS = 10_000;

/** The `credentialCache` option for a configured lifetime (`CREDENTIAL_CACHE_SECONDS`): 0 is off. */
export function credentialCache(
  ttlMs: number,
  events: Pick<CredentialCacheOptions, 'onDisabled' | 'onEnabled'> = {},
): CredentialCacheOptions | false {
  if (ttlMs === 0) return false;
  return { ttlMs, ...events };
}

const USAGE =
  'DATABASE_URL must look like sqlite:./data/vouch.db, sqlite:/absolute/path, sqlite::memory: ' +
  'or postgres://user:password@host:5432/database';

/** Which engine a `DATABASE_URL` names; a `ConfigurationError` for anything else. */
export function databaseEngine(databaseUrl: string): DatabaseEngine {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(databaseUrl)?.[1]?.toLowerCase();
  if (scheme === 'sqlite') return 'sqlite';
  if (scheme === 'postgres' || scheme === 'postgresql') {
    if (!URL.canParse(databaseUrl)) throw new ConfigurationError(`${USAGE}; it does not parse`);
    return 'postgres';
  }
  throw new ConfigurationError(
    scheme === undefined ? USAGE : `${USAGE}; the scheme "${scheme}:" is not supported`,
  );
}

/** The file a `sqlite:` URL names, resolved from the working directory, or `:memory:`. */
export function sqlitePath(databaseUrl: string): string {
  if (databaseEngine(databaseUrl) !== 'sqlite') throw new ConfigurationError(USAGE);
  // Also accept the sqlite:///absolute and sqlite://./relative spellings of other tools.
  let path = databaseUrl.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (path === ':memory:') return path;
  if (path === '' || path.includes('\0')) {
    throw new ConfigurationError('DATABASE_URL: sqlite: needs a file path, or :memory:');
  }
  return resolve(path);
}

/** A database or Redis URL as messages may show it: without its password. */
export function withoutPassword(url: string): string {
  if (!URL.canParse(url)) return '(a URL that does not parse)';
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '';
  return parsed.toString();
}
