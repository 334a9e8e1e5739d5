import type { Awaitable } from 'vouch';
import { findLiveSession, type SessionRows } from './find-live-session.js';
import type {
  ApplicationRecord,
  ChangeWatcher,
  ListedUser,
  LiveToken,
  SessionTimeouts,
  Store,
  UserCredentials,
  UserRecord,
} from './store.js';

/**
 * One engine's tables through its prepared statements, each answering at once (SQLite) or
 * later (PostgreSQL). Secrets arrive as digests; times are milliseconds since the epoch.
 */
export interface Repositories {
  readonly users: {
    create(username: string, passwordHash: string, now: number): Awaitable<UserRecord>;
    findCredentials(username: string): Awaitable<UserCredentials | undefined>;
    list(): Awaitable<ListedUser[]>;
    count(): Awaitable<number>;
    scopes(userId: number): Awaitable<string[]>;
    grantScope(username: string, scope: string): Awaitable<boolean>;
    revokeScope(username: string, scope: string): Awaitable<boolean>;
    setPassword(username: string, passwordHash: string): Awaitable<number>;
    remove(username: string): Awaitable<void>;
    setLocked(username: string, lockedAt: number | null): Awaitable<boolean>;
  };
  readonly tokens: {
    create(...row: Required<Parameters<Store['createToken']>>): Awaitable<void>;
    findLive(digest: string, now: number): Awaitable<LiveToken | undefined>;
    revoke(digest: string, now: number): Awaitable<boolean>;
    revokeOfUser(username: string, now: number): Awaitable<number>;
    /** Deletes the tokens expired by `before`: how many. */
    purge(before: number): Awaitable<number>;
  };
  readonly applications: {
    create(...row: Parameters<Store['createApplication']>): Awaitable<ApplicationRecord>;
    findByKey(keyDigest: string): Awaitable<ApplicationRecord | undefined>;
    list(): Awaitable<ApplicationRecord[]>;
    revoke(id: number, now: number): Awaitable<boolean>;
    grantScope(id: number, scope: string): Awaitable<boolean>;
    revokeScope(id: number, scope: string): Awaitable<boolean>;
  };
  readonly sessions: SessionRows & {
    create(digest: string, userId: number, passwordHash: string, now: number): Awaitable<boolean>;
    /** Deletes the sessions dead by `before`: how many. */
    purge(before: number, timeouts: SessionTimeouts): Awaitable<number>;
  };
  readonly settings: {
    get(name: string): Awaitable<string | undefined>;
    setIfAbsent(name: string, value: string): Awaitable<string>;
  };
}

/** What an engine adds to its repositories to make a {@link Store}. */
export interface Engine {
  /** Answers when the engine is reachable. */
  ping(): Awaitable<void>;
  /** Releases the engine, and stops its watches; harmless when repeated. */
  close(): Awaitable<void>;
  watchChanges(watcher: ChangeWatcher): () => void;
  /** What the engine throws, as the store contract says (`StoreUnavailableError`, or unchanged). */
  toStoreError(error: unknown): Error;
  /** Runs each operation, trying it again as the engine sees fit (a lock held elsewhere). */
  retry?<T>(operation: () => Awaitable<T>): Promise<T>;
}

/**
 * The {@link Store} over one engine's repositories: every call answers a promise, and whatever the
 * engine throws is translated by `engine.toStoreError`.
 */
export function storeOverRepositories(repositories: Repositories, engine: Engine): Store {
  const { users, tokens, applications, sessions, settings } = repositories;
  const call = async <T>(operation: () => Awaitable<T>): Promise<T> => {
    try {
      return await (engine.retry === undefined ? operation() : engine.retry(operation));
    } catch (error) {
      throw engine.toStoreError(error);
    }
  };
  return {
    ping: () => call(() => engine.ping()),
    close: () => call(() => engine.close()),

    createUser: (username, passwordHash, now) =>
      call(() => users.create(username, passwordHash, now)),
    findUserCredentials: (username) => call(() => users.findCredentials(username)),
    listUsers: () => call(() => users.list()),
    countUsers: () => call(() => users.count()),
    userScopes: (userId) => call(() => users.scopes(userId)),
    grantUserScope: (username, scope) => call(() => users.grantScope(username, scope)),
    revokeUserScope: (username, scope) => call(() => users.revokeScope(username, scope)),
    setUserPassword: (username, passwordHash) =>
      call(() => users.setPassword(username, passwordHash)),
    removeUser: (username) => call(() => users.remove(username)),
    lockUser: (username, now) => call(() => users.setLocked(username, now)),
    unlockUser: (username) => call(() => users.setLocked(username, null)),
    // An engine remembers no login: only `cacheCredentials` does.
    recallLogin: () => undefined,
    loginNeedsRenewal: () => false,
    rememberLogin: (_loginDigest, verify) => verify(),

    createToken: (tokenDigest, userId, expiresAt, now, scopes = []) =>
      call(() => tokens.create(tokenDigest, userId, expiresAt, now, scopes)),
    findToken: (tokenDigest, now) => call(() => tokens.findLive(tokenDigest, now)),
    revokeToken: (tokenDigest, now) => call(() => tokens.revoke(tokenDigest, now)),
    revokeUserTokens: (username, now) => call(() => tokens.revokeOfUser(username, now)),

    createApplication: (name, keyPrefix, keyDigest, now) =>
      call(() => applications.create(name, keyPrefix, keyDigest, now)),
    findApplicationByKey: (keyDigest) => call(() => applications.findByKey(keyDigest)),
    listApplications: () => call(() => applications.list()),
    revokeApplication: (id, now) => call(() => applications.revoke(id, now)),
    grantApplicationScope: (id, scope) => call(() => applications.grantScope(id, scope)),
    revokeApplicationScope: (id, scope) => call(() => applications.revokeScope(id, scope)),

    createSession: (sessionDigest, userId, passwordHash, now) =>
      call(() => sessions.create(sessionDigest, userId, passwordHash, now)),
    findSession: (sessionDigest, now, timeouts) =>
      call(() => findLiveSession(sessions, sessionDigest, now, timeouts)),
    deleteSession: (sessionDigest) => call(() => sessions.remove(sessionDigest)),
    purgeExpired: (before, timeouts) =>
      call(async () => ({
        tokens: await tokens.purge(before),
        sessions: await sessions.purge(before, timeouts),
      })),

    getSetting: (name) => call(() => settings.get(name)),
    setSettingIfAbsent: (name, value) => call(() => settings.setIfAbsent(name, value)),

    watchChanges: (watcher) => engine.watchChanges(watcher),
  };
}
