import { ConfigurationError } from 'vouch';
import { openRedis, type RedisConnection } from '../redis/open-redis.js';
import {
  countInMemory,
  countInPostgres,
  countInRedis,
  createFailureLimiter,
  type FailureLimiter,
} from '../security/rate-limit.js';
import {
  credentialCache,
  databaseEngine,
  openStore,
  withoutPassword,
} from '../store/open-store.js';
import { openPool } from '../store/postgres/open-pool.js';
import type { Store } from '../store/store.js';
import { EnvironmentError } from '../errors.js';

/** What the service learns about its backing services while it runs, for its log. */
export interface BackingServiceEvents {
  /** The store cannot report changes made elsewhere: every lookup reads the database. */
  cacheOff?(error: Error): void;
  /** It can again: found credentials are kept in memory again. */
  cacheOn?(): void;
  /** Redis stopped answering: failed sign-ins are counted per instance meanwhile. */
  redisDown?(error: Error): void;
  /** Redis answers again. */
  redisUp?(): void;
}

/** Options of {@link openBackingServices}. */
export interface BackingServiceOptions {
  /** `DATABASE_URL`. */
  readonly databaseUrl: string;
  /** `REDIS_URL`, or `undefined` for none. */
  readonly redisUrl?: string | undefined;
  /** `REDIS_KEY_PREFIX` (default `vouch:`). */
  readonly redisKeyPrefix?: string;
  /** How long a found credential is kept in memory at most; 0: never. */
  readonly credentialCacheMs: number;
  readonly events?: BackingServiceEvents;
}

/** The service's store and failed sign-in limiter, over what is configured. */
export interface BackingServices {
  readonly store: Store;
  readonly limiter: FailureLimiter;
  /** Where things live, for the start-up log: `SQLite`, `PostgreSQL + Redis`, … */
  readonly description: string;
  /** Closes the store, then every connection. */
  close(): Promise<void>;
}

/**
 * Opens what the service runs on: the store `DATABASE_URL` names (SQLite, or PostgreSQL for
 * several instances), and, when `REDIS_URL` is set, Redis for what instances share at request
 * speed. Failed sign-ins are counted in Redis when there is one, else in PostgreSQL, else in this
 * process's memory; revocations and logouts reach every instance's cache over Redis pub/sub, else
 * PostgreSQL's LISTEN/NOTIFY, else SQLite's file. Either variable being unusable or unreachable
 * is a {@link EnvironmentError} naming it, never echoing a password.
 */
export async function openBackingServices(
  options: BackingServiceOptions,
): Promise<BackingServices> {
  const { databaseUrl, redisUrl, redisKeyPrefix, events = {} } = options;
  const redis =
    redisUrl === undefined ? undefined : await connectRedis(redisUrl, redisKeyPrefix, events);
  let store: Store;
  try {
    store = await openStore(databaseUrl, {
      redis,
      credentialCache: credentialCache(options.credentialCacheMs, {
        onDisabled: (error) => events.cacheOff?.(error),
        onEnabled: () => events.cacheOn?.(),
      }),
    });
  } catch (error) {
    await redis?.close();
    throw startupError('DATABASE_URL', databaseUrl, error);
  }
  const postgres = databaseEngine(databaseUrl) === 'postgres';
  // Counters get a small pool of their own: a flood of sign-ins cannot starve lookups.
  const countersPool =
    postgres && redis === undefined ? openPool(databaseUrl, { maxConnections: 2 }) : undefined;
  const counters =
    redis !== undefined
      ? countInRedis(redis)
      : countersPool !== undefined
        ? countInPostgres(countersPool)
        : countInMemory;
  const engine = postgres ? 'PostgreSQL' : 'SQLite';
  return {
    store,
    limiter: createFailureLimiter({}, counters),
    description: redis === undefined ? engine : `${engine} + Redis`,
    async close() {
      await store.close();
      await countersPool?.end();
      await redis?.close();
    },
  };
}

/**
 * Connects to `REDIS_URL` (for the service, or for the CLI that must tell the service's
 * instances what it revoked), its keys and channel under `keyPrefix`; a {@link EnvironmentError}
 * naming it when it cannot.
 */
export async function connectRedis(
  redisUrl: string,
  keyPrefix: string | undefined,
  events: BackingServiceEvents = {},
): Promise<RedisConnection> {
  try {
    return await openRedis(redisUrl, {
      ...(keyPrefix === undefined ? {} : { keyPrefix }),
      onDown: (error) => events.redisDown?.(error),
      onUp: () => events.redisUp?.(),
    });
  } catch (error) {
    throw startupError('REDIS_URL', redisUrl, error);
  }
}

/** Why `variable` cannot be used, as a {@link EnvironmentError}: where it points, never a password. */
function startupError(variable: string, url: string, error: unknown): Error {
  if (error instanceof ConfigurationError) {
    return new EnvironmentError(variable, error.message.replace(new RegExp(`^${variable}:? `), ''));
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new EnvironmentError(
    variable,
    `cannot use ${withoutPassword(url)}: ${scrub(reason, url)}`,
  );
}

/** A message with the URL's password taken out, should a driver ever quote it. */
function scrub(message: string, url: string): string {
  const encoded = URL.canParse(url) ? new URL(url).password : '';
  if (encoded === '') return message;
  let decoded = encoded;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    // Not valid percent-encoding: the password is as written.
  }
  return message.split(decoded).join('***').split(encoded).join('***');
}
