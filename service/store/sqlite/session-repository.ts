import type Database from 'better-sqlite3';
import type { SessionTimeouts } from '../store.js';
import {
  sessionOf,
  type JoinedSessionRow,
  type SessionRow,
  type SessionRows,
} from '../find-live-session.js';

/** The `sessions` table through prepared statements. */
export interface SessionRepository extends SessionRows {
  /** `false`, and nothing inserted, unless the user exists, unlocked, with this password hash. */
  create(digest: string, userId: number, passwordHash: string, now: number): boolean;
  read(digest: string): SessionRow | undefined;
  touch(digest: string, now: number): boolean;
  remove(digest: string): void;
  /** Deletes the sessions dead by `before`: how many. */
  purge(before: number, timeouts: SessionTimeouts): number;
}

/** Prepares the statements of the `sessions` table once, for the life of the connection. */
export function createSessionRepository(db: Database.Database): SessionRepository {
  // Only for the password just checked: one changed (or a lock) committed meanwhile ends the
  // sign-in. One statement, and SQLite has one writer: nothing can come between.
  const insert = db.prepare<[string, number, number, number, string]>(
    `INSERT INTO sessions (digest, user_id, created_at, last_seen_at)
     SELECT ?, id, ?, ? FROM users WHERE id = ? AND password_hash = ? AND locked_at IS NULL`,
  );
  const read = db.prepare<[string], JoinedSessionRow>(
    `SELECT s.created_at AS createdAt, s.last_seen_at AS lastSeenAt,
            u.id AS userId, u.username, u.created_at AS userCreatedAt
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.digest = ? AND u.locked_at IS NULL`,
  );
  // max() so that a request carrying an older clock never moves the idle clock backwards; an
  // UPDATE matches a row even when the value is unchanged, so `changes` says whether it exists.
  const touch = db.prepare<[number, string]>(
    'UPDATE sessions SET last_seen_at = max(last_seen_at, ?) WHERE digest = ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM sessions WHERE digest = ?');
  // Dead as isExpired judges: idle since `before` − idle, or begun by `before` − absolute.
  const purge = db.prepare<[number, number]>(
    'DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?',
  );

  return {
    create: (digest, userId, passwordHash, now) =>
      insert.run(digest, now, now, userId, passwordHash).changes > 0,
    read(digest) {
      const row = read.get(digest);
      return row === undefined ? undefined : sessionOf(row);
    },
    touch: (digest, now) => touch.run(now, digest).changes > 0,
    remove(digest) {
      remove.run(digest);
    },
    purge: (before, { idleMs, absoluteMs }) =>
      purge.run(before - idleMs, before - absoluteMs).changes,
  };
}
