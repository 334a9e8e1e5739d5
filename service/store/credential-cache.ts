import { LRUCache } from 'lru-cache';
import { isExpired, needsRefresh } from './find-live-session.js';
import {
  mapAwaitable,
  type ApplicationRecord,
  type Awaitable,
  type LiveSession,
  type LiveToken,
  type Store,
} from './store.js';

/** Options of {@link cacheCredentials}. */
export interface CredentialCacheOptions {
  /** How long an answer is kept at most, whatever happens (milliseconds, > 0). */
  readonly ttlMs: number;
  /** How many answers of each kind are kept at most (default 10,000). */
  readonly maxEntries?: number;
  /**
   * Called once when the store can no longer report other processes' commits; from then on the
   * cache is off and every lookup reads the store.
   */
  readonly onDisabled?: (error: Error) => void;
}

/** The default of {@link CredentialCacheOptions.maxEntries}. */
export const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * The store, with its three credential lookups (tokens, API keys, sessions) answered from memory
 * once read: synchronously, without a database read, hash join or promise. Everything else goes
 * straight to the store.
 *
 * A cached answer is never staler than the database as this process can see it:
 * - writes through this store that take a credential away (revoking a token or a key, deleting a
 *   session) forget it as soon as they complete;
 * - a commit by any other connection (the CLI revoking a key, another service process logging a
 *   session out) forgets everything, as soon as the store reports it (`watchForeignCommits`);
 * - a lookup that was under way while anything was forgotten keeps nothing;
 * - expiry, idle and absolute timeouts are judged on every hit, and a session's idle clock is
 *   still written by the store when stale;
 * - when the store cannot report commits any more, the cache turns itself off;
 * - whatever happens, nothing is kept longer than `ttlMs`.
 *
 * Only found credentials are kept (a flood of unknown ones cannot fill it, and a credential
 * created later is never hidden), keyed by their digests, one cache per kind. A write added to
 * the store that changes what a lookup answers must forget it here too.
 *
 * @example const store = cacheCredentials(openSqliteStore(path), { ttlMs: 10_000 });
 */
export function cacheCredentials(store: Store, options: CredentialCacheOptions): Store {
  const settings = { max: options.maxEntries ?? DEFAULT_CACHE_ENTRIES, ttl: options.ttlMs };
  const tokens = new LRUCache<string, LiveToken>(settings);
  const applications = new LRUCache<string, ApplicationRecord>(settings);
  const sessions = new LRUCache<string, LiveSession>(settings);
  // Bumped whenever anything is forgotten: a lookup begun before keeps nothing.
  let generation = 0;
  // Once off, nothing is kept, so every lookup misses.
  let enabled = true;

  const forgetAll = () => {
    generation += 1;
    tokens.clear();
    applications.clear();
    sessions.clear();
  };
  const stopWatching = store.watchForeignCommits(forgetAll, (error) => {
    enabled = false;
    forgetAll();
    options.onDisabled?.(error);
  });

  /** Reads through the store; keeps what it finds unless something was forgotten meanwhile. */
  function readThrough<V extends object>(
    cache: LRUCache<string, V>,
    key: string,
    read: () => Awaitable<V | undefined>,
  ): Awaitable<V | undefined> {
    const begun = generation;
    const keep = (value: V | undefined): V | undefined => {
      if (value === undefined) cache.delete(key);
      else if (enabled && generation === begun) cache.set(key, value);
      return value;
    };
    return mapAwaitable(read(), keep);
  }

  /** Runs a write, then forgets what it may have changed, whether or not it succeeded. */
  async function thenForget<T>(write: Promise<T>, forget: () => void): Promise<T> {
    try {
      return await write;
    } finally {
      generation += 1;
      forget();
    }
  }

  return {
    ping: () => store.ping(),
    close() {
      stopWatching();
      forgetAll();
      return store.close();
    },

    createUser: (username, passwordHash, now) => store.createUser(username, passwordHash, now),
    findUserCredentials: (username) => store.findUserCredentials(username),
    listUsers: () => store.listUsers(),
    countUsers: () => store.countUsers(),

    createToken: (tokenDigest, userId, expiresAt, now) =>
      store.createToken(tokenDigest, userId, expiresAt, now),
    findToken(tokenDigest, now) {
      const hit = tokens.get(tokenDigest);
      if (hit !== undefined && hit.expiresAt > now) return hit;
      return readThrough(tokens, tokenDigest, () => store.findToken(tokenDigest, now));
    },
    revokeToken: (tokenDigest, now) =>
      thenForget(store.revokeToken(tokenDigest, now), () => tokens.delete(tokenDigest)),

    createApplication: (name, keyPrefix, keyDigest, now) =>
      store.createApplication(name, keyPrefix, keyDigest, now),
    findApplicationByKey(keyDigest) {
      const hit = applications.get(keyDigest);
      if (hit !== undefined) return hit;
      return readThrough(applications, keyDigest, () => store.findApplicationByKey(keyDigest));
    },
    listApplications: () => store.listApplications(),
    // Keyed by digest, not id: forget every key (revocations are rare).
    revokeApplication: (id, now) =>
      thenForget(store.revokeApplication(id, now), () => {
        applications.clear();
      }),

    createSession: (sessionDigest, userId, now) => store.createSession(sessionDigest, userId, now),
    findSession(sessionDigest, now, timeouts) {
      const hit = sessions.get(sessionDigest);
      if (
        hit !== undefined &&
        !isExpired(hit, now, timeouts) &&
        !needsRefresh(hit, now, timeouts)
      ) {
        return hit;
      }
      // The store deletes an expired session and writes a stale idle clock.
      return readThrough(sessions, sessionDigest, () =>
        store.findSession(sessionDigest, now, timeouts),
      );
    },
    deleteSession: (sessionDigest) =>
      thenForget(store.deleteSession(sessionDigest), () => sessions.delete(sessionDigest)),

    getSetting: (name) => store.getSetting(name),
    setSettingIfAbsent: (name, value) => store.setSettingIfAbsent(name, value),
    watchForeignCommits: (listener, onError) => store.watchForeignCommits(listener, onError),
  };
}
