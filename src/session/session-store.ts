import type { Awaitable } from '../core/outcome.js';

/**
 * Where sessions live. Implementations keep only a digest of each id, enforce idle and absolute
 * timeouts themselves, and throw `StoreUnavailableError` when they cannot answer.
 */
export interface SessionStore<TUser> {
  /** Starts a session for a user and returns its new id (at least 128 bits from a CSPRNG). */
  create(user: TUser): Promise<string>;
  /**
   * The user of a live session, or `undefined` when unknown, expired or destroyed. May answer
   * synchronously (from a cache, say); `SessionAuth` then decides without a promise.
   */
  get(sessionId: string): Awaitable<TUser | undefined>;
  /** Ends a session at once; later `get` calls never see it again. */
  destroy(sessionId: string): Promise<void>;
}
