import { LRUCache } from 'lru-cache';
import type { Awaitable } from 'vouch';
import { mapAwaitable } from '../internal/map-awaitable.js';
import { isExpired, needsRefresh } from './find-live-session.js';
import {
  type ApplicationRecord,
  type CredentialChange,
  type LiveLogin,
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
   * Called when the store can no longer report changes: until it can again, the cache is off and
   * every lookup reads the store.
   */
  readonly onDisabled?: (error: Error) => void;
  /** Called when the store can report changes again after `onDisabled`: the cache is back on. */
  readonly onEnabled?: () => void;
}

/** The default of {@link CredentialCacheOptions.maxEntries}. */
export const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * The store, with its three credential lookups (tokens, API keys, sessions) answered from memory
 * once read: synchronously, without a database read, hash join or promise; logins verified
 * through `rememberLogin` are recalled the same way (`recallLogin`), without hashing the password
 * again. Everything else goes straight to the store.
 *
 * A cached answer is never staler than the database as this process can see it:
 * - writes through this store that take a credential away (revoking a token or a key, deleting a
 *   session) forget it as soon as they complete;
 * - a change committed by any other connection (the CLI revoking a key, another service instance
 *   logging a session out) forgets what it may have taken away as soon as the store reports it
 *   (`watchChanges`): that credential, or everything when the store cannot say which;
 * - a lookup that was under way while anything of its kind was forgotten keeps nothing;
 * - expiry, idle and absolute timeouts are judged on every hit, and a session's idle clock is
 *   still written by the store when stale;
 * - nothing is kept until the store's watch is established, nor while a change it cannot tell
 *   yet is pending, nor while the watch is lost;
 * - whatever happens, nothing is kept longer than `ttlMs`.
 *
 * Only found credentials and verified logins are kept (a flood of unknown ones or of wrong
 * passwords cannot fill it, and a credential created later is never hidden), keyed by their
 * digests, one cache per kind. A write added to
 * the store that changes what a lookup answers must forget it here too.
 *
 * @example const store = cacheCredentials(openSqliteStore(path), { ttlMs: 10_000 });
 */
export function cacheCredentials(store: Store, options: CredentialCacheOptions): Store {
  // Age read from the clock at each lookup (ttlResolution 0): lru-cache otherwise keeps a reading
  // for a millisecond with a timer, one more wake-up of the event loop per lookup at low traffic,
  // and a reading as old as any stall of the loop.
  const settings = {
    max: options.maxEntries ?? DEFAULT_CACHE_ENTRIES,
    ttl: options.ttlMs,
    ttlResolution: 0,
  };
  const kept = <V extends object>(): Kept<V> => ({
    cache: new LRUCache<string, V>(settings),
    generation: 0,
  });
  const tokens = kept<LiveToken>();
  const applications = kept<ApplicationRecord>();
  const sessions = kept<LiveSession>();
  // Verified logins, by a keyed hash of the username and password: a change to any user or grant
  // is reported as `all`, which is when they are forgotten.
  const logins = kept<LiveLogin>();
  // A remembered login in use is verified again within its last 2 s (last quarter when shorter).
  const renewLoginsWithinMs = Math.min(2000, options.ttlMs / 4);
  // Nothing is kept unless the store reports changes: not before its watch is ready, nor while a
  // change is pending, nor while the watch is lost.
  let state: 'starting' | 'on' | 'pending' | 'off' = 'starting';

  const forgetAll = () => {
    forgetKind(tokens);
    forgetKind(applications);
    forgetKind(sessions);
    forgetKind(logins);
  };
  const forget = (change: CredentialChange) => {
    if (change.kind === 'token') forgetKind(tokens, change.digest);
    else if (change.kind === 'session') forgetKind(sessions, change.digest);
    else if (change.kind === 'applications') forgetKind(applications);
    else forgetAll();
  };
  const stopWatching = store.watchChanges({
    ready() {
      forgetAll();
      const wasOff = state === 'off';
      state = 'on';
      if (wasOff) options.onEnabled?.();
    },
    changed: forget,
    pending() {
      forgetAll();
      if (state === 'on') state = 'pending';
    },
    lost(error) {
      forgetAll();
      if (state === 'off') return;
      state = 'off';
      options.onDisabled?.(error);
    },
  });

  /**
   * Reads through the store; keeps what it finds unless something of its kind was forgotten
   * meanwhile.
   */
  function readThrough<V extends object>(
    kind: Kept<V>,
    key: string,
    read: () => Awaitable<V | undefined>,
  ): Awaitable<V | undefined> {
    const begun = kind.generation;
    const keep = (value: V | undefined): V | undefined => {
      if (value === undefined) kind.cache.delete(key);
      else if (state === 'on' && kind.generation === begun) kind.cache.set(key, value);
      return value;
    };
    return mapAwaitable(read(), keep);
  }

  /** Runs a write, then forgets what it may have changed, whether or not it succeeded. */
  async function thenForget<T>(write: Promise<T>, change: CredentialChange): Promise<T> {
    try {
      return await write;
    } finally {
      forget(change);
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
    userScopes: (userId) => store.userScopes(userId),
    // A withdrawal changes what the user's tokens may do: forget every token (grants are rare). A
    // grant cannot add to a token issued before it, but is forgotten alike, the safer way.
    grantUserScope: (username, scope) =>
      thenForget(store.grantUserScope(username, scope), { kind: 'all' }),
    revokeUserScope: (username, scope) =>
      thenForget(store.revokeUserScope(username, scope), { kind: 'all' }),
    // A user's password, existence and lock decide its logins, tokens and sessions alike.
    setUserPassword: (username, passwordHash) =>
      thenForget(store.setUserPassword(username, passwordHash), { kind: 'all' }),
    removeUser: (username) => thenForget(store.removeUser(username), { kind: 'all' }),
    lockUser: (username, now) => thenForget(store.lockUser(username, now), { kind: 'all' }),
    unlockUser: (username) => thenForget(store.unlockUser(username), { kind: 'all' }),
    recallLogin: (loginDigest) => logins.cache.get(loginDigest),
    loginNeedsRenewal(loginDigest) {
      const left = logins.cache.getRemainingTTL(loginDigest);
      return left > 0 && left <= renewLoginsWithinMs;
    },
    rememberLogin: (loginDigest, verify) =>
      Promise.resolve(readThrough(logins, loginDigest, verify)),

    createToken: (tokenDigest, userId, expiresAt, now, scopes) =>
      store.createToken(tokenDigest, userId, expiresAt, now, scopes),
    findToken(tokenDigest, now) {
      const hit = tokens.cache.get(tokenDigest);
      if (hit !== undefined && hit.expiresAt > now) return hit;
      return readThrough(tokens, tokenDigest, () => store.findToken(tokenDigest, now));
    },
    revokeToken: (tokenDigest, now) =>
      thenForget(store.revokeToken(tokenDigest, now), { kind: 'token', digest: tokenDigest }),
    // Kept by digest, not by user: forget everything (as a lock does; this is as rare).
    revokeUserTokens: (username, now) =>
      thenForget(store.revokeUserTokens(username, now), { kind: 'all' }),

    createApplication: (name, keyPrefix, keyDigest, now) =>
      store.createApplication(name, keyPrefix, keyDigest, now),
    findApplicationByKey(keyDigest) {
      const hit = applications.cache.get(keyDigest);
      if (hit !== undefined) return hit;
      return readThrough(applications, keyDigest, () => store.findApplicationByKey(keyDigest));
    },
    listApplications: () => store.listApplications(),
    // Keyed by digest, not id: forget every key (revocations are rare).
    revokeApplication: (id, now) =>
      thenForget(store.revokeApplication(id, now), { kind: 'applications' }),
    grantApplicationScope: (id, scope) =>
      thenForget(store.grantApplicationScope(id, scope), { kind: 'applications' }),
    revokeApplicationScope: (id, scope) =>
      thenForget(store.revokeApplicationScope(id, scope), { kind: 'applications' }),

    createSession: (sessionDigest, userId, passwordHash, now) =>
      store.createSession(sessionDigest, userId, passwordHash, now),
    findSession(sessionDigest, now, timeouts) {
      const hit = sessions.cache.get(sessionDigest);
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
      thenForget(store.deleteSession(sessionDigest), { kind: 'session', digest: sessionDigest }),
    // Only what was dead by `before` goes, and a hit is judged on its expiry: nothing to forget.
    purgeExpired: (before, timeouts) => store.purgeExpired(before, timeouts),

    getSetting: (name) => store.getSetting(name),
    setSettingIfAbsent: (name, value) => store.setSettingIfAbsent(name, value),
    watchChanges: (watcher) => store.watchChanges(watcher),
  };
}

/** One kind of answer, and how often any was forgotten: a lookup begun before keeps nothing. */
interface Kept<V extends object> {
  readonly cache: LRUCache<string, V>;
  generation: number;
}

/** Forgets one answer of a kind, or all of them. */
function forgetKind<V extends object>(kind: Kept<V>, key?: string): void {
  kind.generation += 1;
  if (key === undefined) kind.cache.clear();
  else kind.cache.delete(key);
}
