import type { Awaitable } from 'vouch';

/** A user as the service shows it: never with its password hash. */
export interface UserRecord {
  readonly id: number;
  readonly username: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

/** A user as `user list` shows it: with whether it is locked. */
export interface ListedUser extends UserRecord {
  /** When the user was locked (see `Store.lockUser`), or `null` while it is not. */
  readonly lockedAt: number | null;
}

/** A user with the scrypt hash of its password, for checking a login. */
export interface UserCredentials extends ListedUser {
  readonly passwordHash: string;
}

/** A username and password that work: their user, with the scopes granted to it now. */
export interface LiveLogin {
  readonly user: UserRecord;
  /** The user's grants, sorted. */
  readonly scopes: readonly string[];
}

/** An application holding one API key; the key itself is never stored, only its digest. */
export interface ApplicationRecord {
  readonly id: number;
  readonly name: string;
  /** The first characters of the key (`vk_abcd1234`), enough to recognise it in a listing. */
  readonly keyPrefix: string;
  readonly createdAt: number;
  /** When the key was revoked, or `null` while it works. */
  readonly revokedAt: number | null;
  /** The scopes granted to the application's key, sorted. */
  readonly scopes: readonly string[];
}

/** A bearer token that works: its user, and until when. */
export interface LiveToken {
  readonly user: UserRecord;
  /** Milliseconds since the epoch; the token is dead from this instant on. */
  readonly expiresAt: number;
  /**
   * What the token may do, sorted: the scopes it was issued with that its user has held without
   * interruption since it was issued. A grant withdrawn takes the scope away from the tokens
   * issued before, for good: granted again, it counts only for tokens issued after.
   */
  readonly scopes: readonly string[];
}

/** A session that works: its user and its clocks, as stored after this request. */
export interface LiveSession {
  readonly user: UserRecord;
  readonly createdAt: number;
  /** The idle clock, refreshed by this request when it had grown stale. */
  readonly lastSeenAt: number;
}

/** How many expired credentials {@link Store.purgeExpired} deleted, of each kind. */
export interface Purged {
  readonly tokens: number;
  readonly sessions: number;
}

/** How long sessions live. */
export interface SessionTimeouts {
  /** A session unused this long dies. */
  readonly idleMs: number;
  /** A session dies this long after login, however busy. */
  readonly absoluteMs: number;
}

/**
 * Everything the service keeps, behind one small async interface so that either engine (SQLite,
 * PostgreSQL) serves the routes unchanged. Secrets arrive already
 * digested (SHA-256, base64url): a store never sees a token, key or session id. Times are
 * milliseconds since the epoch, passed in so tests control the clock.
 *
 * The three credential lookups (`findToken`, `findApplicationByKey`, `findSession`) may answer
 * synchronously, from memory (see `cacheCredentials`), and so does `recallLogin`; every other
 * method answers a promise.
 *
 * Every method throws (or rejects with) `StoreUnavailableError` (from `vouch`) when the engine
 * cannot answer (locked past its busy timeout, disk gone, connection lost, slower than its
 * timeout), and
 * `UsernameTakenError` / `NotFoundError` where documented; never anything else for expected
 * conditions.
 */
export interface Store {
  /** Answers when the engine is reachable; throws `StoreUnavailableError` otherwise. */
  ping(): Promise<void>;
  /** Releases the engine; later calls fail. */
  close(): Promise<void>;

  /** Adds a user; `UsernameTakenError` when the name exists (names compare case-sensitively). */
  createUser(username: string, passwordHash: string, now: number): Promise<UserRecord>;
  /** The user with this name and its password hash, or `undefined`. */
  findUserCredentials(username: string): Promise<UserCredentials | undefined>;
  /** Every user, by id, with when it was locked. */
  listUsers(): Promise<ListedUser[]>;
  /** How many users exist (0 on a new database). */
  countUsers(): Promise<number>;
  /** The scopes granted to a user, sorted (none for an unknown id). */
  userScopes(userId: number): Promise<string[]>;
  /**
   * Grants a scope to the user with this name, for the tokens issued from now on (never for those
   * issued before): `true` once granted, `false` when it already was; `NotFoundError` for an
   * unknown name.
   */
  grantUserScope(username: string, scope: string): Promise<boolean>;
  /**
   * Withdraws a scope from a user, and so from the user's tokens, at once and for good (granting
   * it again gives it to later tokens only): `true` once withdrawn, `false` when the user did not
   * hold it; `NotFoundError` for an unknown name.
   */
  revokeUserScope(username: string, scope: string): Promise<boolean>;
  /**
   * Replaces a user's password hash at once, and in the same transaction deletes the user's
   * sessions (each was proof of the old password): how many it deleted. The user's tokens are
   * kept (separate credentials, each revocable); `NotFoundError` for an unknown name.
   */
  setUserPassword(username: string, passwordHash: string): Promise<number>;
  /** Deletes a user at once, with its tokens, sessions and grants; `NotFoundError` when unknown. */
  removeUser(username: string): Promise<void>;
  /**
   * Locks a user out at once: its password, tokens and sessions are refused until it is unlocked.
   * `true` once locked, `false` when it already was; `NotFoundError` for an unknown name.
   */
  lockUser(username: string, now: number): Promise<boolean>;
  /**
   * Lets a locked user back in: its password again, and its tokens and sessions that have not
   * expired meanwhile. `true` once unlocked, `false` when it was not locked; `NotFoundError` for an
   * unknown name.
   */
  unlockUser(username: string): Promise<boolean>;
  /**
   * The login remembered under `loginDigest` (a keyed hash of a username and password, never the
   * password) by {@link Store.rememberLogin}: from memory only, at once (see `cacheCredentials`). An
   * engine remembers nothing and answers `undefined`.
   */
  recallLogin(loginDigest: string): LiveLogin | undefined;
  /**
   * Whether the login remembered under `loginDigest` is about to be forgotten for its age: verified
   * again now through {@link Store.rememberLogin}, it stays remembered, and no request waits for a
   * password hash. An engine remembers nothing and answers `false`.
   */
  loginNeedsRenewal(loginDigest: string): boolean;
  /**
   * What `verify` finds (it checks a password against this store), remembered under `loginDigest`
   * unless anything that may change it was committed meanwhile. An engine only runs `verify`.
   */
  rememberLogin(
    loginDigest: string,
    verify: () => Promise<LiveLogin | undefined>,
  ): Promise<LiveLogin | undefined>;

  /** Records a bearer token for a user, valid until `expiresAt`, carrying `scopes` (none by default). */
  createToken(
    tokenDigest: string,
    userId: number,
    expiresAt: number,
    now: number,
    scopes?: readonly string[],
  ): Promise<void>;
  /** A token that exists, has not expired at `now` and is not revoked. */
  findToken(tokenDigest: string, now: number): Awaitable<LiveToken | undefined>;
  /** Revokes a token at once (durably); `NotFoundError` for an unknown digest; `false` when already revoked. */
  revokeToken(tokenDigest: string, now: number): Promise<boolean>;
  /**
   * Revokes every token of the user with this name not revoked yet, expired or not, at once
   * (durably) and in one transaction: how many had not expired at `now`. Tokens issued later work;
   * `NotFoundError` for an unknown name.
   */
  revokeUserTokens(username: string, now: number): Promise<number>;

  /** Adds an application with the digest of its new key. */
  createApplication(
    name: string,
    keyPrefix: string,
    keyDigest: string,
    now: number,
  ): Promise<ApplicationRecord>;
  /** The application whose key has this digest, unless revoked. */
  findApplicationByKey(keyDigest: string): Awaitable<ApplicationRecord | undefined>;
  /** Every application, revoked or not, by id. */
  listApplications(): Promise<ApplicationRecord[]>;
  /** Revokes an application's key at once (durably); `NotFoundError` for an unknown id; `false` when already revoked. */
  revokeApplication(id: number, now: number): Promise<boolean>;
  /**
   * Grants a scope to an application's key, at once (granted again after a withdrawal too: the
   * key is the credential, there is nothing issued before it): `true` once granted, `false` when
   * it already was; `NotFoundError` for an unknown id.
   */
  grantApplicationScope(id: number, scope: string): Promise<boolean>;
  /**
   * Withdraws a scope from an application's key at once: `true` once withdrawn, `false` when it
   * did not hold it; `NotFoundError` for an unknown id.
   */
  revokeApplicationScope(id: number, scope: string): Promise<boolean>;

  /**
   * Starts a session for a user whose password was just checked against `passwordHash`: `true`
   * once started; `false`, and nothing started, when that is no longer the user's hash (the
   * password was changed while it was being checked), or the user was locked or removed meanwhile.
   */
  createSession(
    sessionDigest: string,
    userId: number,
    passwordHash: string,
    now: number,
  ): Promise<boolean>;
  /**
   * A live session, its idle clock refreshed when stale. An expired session is deleted and
   * `undefined` returned. A session deleted meanwhile (logout) is never recreated.
   */
  findSession(
    sessionDigest: string,
    now: number,
    timeouts: SessionTimeouts,
  ): Awaitable<LiveSession | undefined>;
  /** Deletes a session at once (durably); nothing happens for an unknown one. */
  deleteSession(sessionDigest: string): Promise<void>;

  /**
   * Deletes, durably, the tokens that had expired by `before` (revoked or not) and the sessions
   * dead by then (their idle or absolute timeout passed): how many of each. Nothing that could
   * still work at `before` goes, so `before` should lie behind every instance's clock.
   */
  purgeExpired(before: number, timeouts: SessionTimeouts): Promise<Purged>;

  /** A stored setting (the generated secret key, …), or `undefined`. */
  getSetting(name: string): Promise<string | undefined>;
  /** Stores a setting unless one exists, and returns the value in force (first writer wins). */
  setSettingIfAbsent(name: string, value: string): Promise<string>;

  /**
   * Reports the changes other connections (the CLI, another service instance) commit that may
   * take a credential away, each once it is visible to this store's reads, so that what was read
   * before can be forgotten. Watching begins unestablished: nothing is reported until
   * `watcher.ready()`. Returns a function that stops watching.
   */
  watchChanges(watcher: ChangeWatcher): () => void;
}

/**
 * What a committed change may have taken away: one token or session (by digest), any
 * application key, or anything at all.
 */
export type CredentialChange =
  | { readonly kind: 'token' | 'session'; readonly digest: string }
  | { readonly kind: 'applications' | 'all' };

/** Receives what {@link Store.watchChanges} learns. */
export interface ChangeWatcher {
  /**
   * From now on every change is reported; changes committed before may not have been, so
   * whatever was read before must be forgotten. Called again after each `lost`, once it can tell
   * again.
   */
  ready(): void;
  /** A committed change, visible to this store's reads. */
  changed(change: CredentialChange): void;
  /**
   * A change may be under way that cannot be told yet (another connection holds the write lock
   * and may commit at any moment): trust nothing read until `ready`. Not a failure; `lost` follows
   * if it lasts.
   */
  pending(): void;
  /** The store can no longer tell; nothing read may be trusted until `ready` is called again. */
  lost(error: Error): void;
}
