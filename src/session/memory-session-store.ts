import { sha256 } from '@noble/hashes/sha2.js';
import { toBase64url } from '../internal/base64.js';
import { utf8 } from '../core/utf8.js';
import type { SessionStore } from './session-store.js';

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** A session unused for this long dies (default 30 minutes). */
  readonly idleTimeoutMs?: number;
  /** A session dies this long after it was created, however busy (default 12 hours). */
  readonly absoluteTimeoutMs?: number;
  /** The clock, for tests (default `Date.now`). */
  readonly now?: () => number;
}

interface Entry<TUser> {
  readonly user: TUser;
  readonly createdAt: number;
  lastSeenAt: number;
}

/**
 * An in-process session store for tests and single-process tools. Ids are 256 random bits; only
 * their SHA-256 digests are kept. Sessions are lost on restart: use a database store in services.
 */
export class MemorySessionStore<TUser> implements SessionStore<TUser> {
  readonly #sessions = new Map<string, Entry<TUser>>();
  readonly #idle: number;
  readonly #absolute: number;
  readonly #now: () => number;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.#idle = options.idleTimeoutMs ?? 30 * 60_000;
    this.#absolute = options.absoluteTimeoutMs ?? 12 * 60 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** How many sessions are held, live or not yet swept. */
  get size(): number {
    return this.#sessions.size;
  }

  create(user: TUser): Promise<string> {
    const id = toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    const now = this.#now();
    this.#sessions.set(digest(id), { user, createdAt: now, lastSeenAt: now });
    return Promise.resolve(id);
  }

  get(sessionId: string): Promise<TUser | undefined> {
    const key = digest(sessionId);
    const entry = this.#sessions.get(key);
    if (entry === undefined) return Promise.resolve(undefined);
    const now = this.#now();
    if (now - entry.lastSeenAt >= this.#idle || now - entry.createdAt >= this.#absolute) {
      this.#sessions.delete(key);
      return Promise.resolve(undefined);
    }
    entry.lastSeenAt = now;
    return Promise.resolve(entry.user);
  }

  destroy(sessionId: string): Promise<void> {
    this.#sessions.delete(digest(sessionId));
    return Promise.resolve();
  }
}

function digest(id: string): string {
  return toBase64url(sha256(utf8(id)));
}
