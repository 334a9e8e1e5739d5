import type { LiveSession, SessionTimeouts, UserRecord } from './store.js';

/** A stored session joined with its user. */
export interface SessionRow {
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly user: UserRecord;
}

/** A session row as both engines' statements select it, joined with its user. */
export interface JoinedSessionRow {
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly userId: number;
  readonly username: string;
  readonly userCreatedAt: number;
}

/** A joined row as a {@link SessionRow}. */
export function sessionOf(row: JoinedSessionRow): SessionRow {
  return {
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    user: { id: row.userId, username: row.username, createdAt: row.userCreatedAt },
  };
}

/** What {@link findLiveSession} needs from an engine: three single-statement operations. */
export interface SessionRows {
  /** The session with this digest, or `undefined`. */
  read(digest: string): SessionRow | undefined | Promise<SessionRow | undefined>;
  /**
   * Moves the idle clock forward with an UPDATE of the existing row only (never an upsert), and
   * says whether the row still existed.
   */
  touch(digest: string, now: number): boolean | Promise<boolean>;
  /** Deletes the session. */
  remove(digest: string): void | Promise<void>;
}

/**
 * How stale `last_seen_at` may grow before a request refreshes it: a tenth of the idle timeout,
 * at most a minute. Refreshing on every request would make every authenticated read a durable
 * write; the price is that a session may die up to this much before its idle timeout.
 */
export function refreshInterval(timeouts: SessionTimeouts): number {
  return Math.min(60_000, timeouts.idleMs / 10);
}

/** Whether a session with these clocks has died of its idle or its absolute timeout at `now`. */
export function isExpired(
  session: Pick<SessionRow, 'createdAt' | 'lastSeenAt'>,
  now: number,
  timeouts: SessionTimeouts,
): boolean {
  return (
    now - session.lastSeenAt >= timeouts.idleMs || now - session.createdAt >= timeouts.absoluteMs
  );
}

/** Whether a live session's idle clock has grown stale enough at `now` to be written again. */
export function needsRefresh(
  session: Pick<SessionRow, 'lastSeenAt'>,
  now: number,
  timeouts: SessionTimeouts,
): boolean {
  return now - session.lastSeenAt >= refreshInterval(timeouts);
}

/**
 * A live session, the same for every engine: an expired session is deleted; a live one has its
 * idle clock refreshed when stale. If the session is deleted between the read and the refresh (a
 * logout racing this request), the refresh finds no row and the answer is `undefined`: the
 * session is never recreated and never honoured after its logout was seen.
 */
export async function findLiveSession(
  rows: SessionRows,
  digest: string,
  now: number,
  timeouts: SessionTimeouts,
): Promise<LiveSession | undefined> {
  const row = await rows.read(digest);
  if (row === undefined) return undefined;
  if (isExpired(row, now, timeouts)) {
    await rows.remove(digest);
    return undefined;
  }
  if (!needsRefresh(row, now, timeouts)) return row;
  if (!(await rows.touch(digest, now))) return undefined;
  return { ...row, lastSeenAt: now };
}
