import type { Pool } from 'pg';
import { sessionOf, type JoinedSessionRow } from '../find-live-session.js';
import type { Repositories } from '../repository-store.js';

/** The statements of the `sessions` table, prepared by each connection on first use. */
export function createSessionRepository(db: Pick<Pool, 'query'>): Repositories['sessions'] {
  return {
    // Only for the password just checked: one changed (or a lock) committed meanwhile ends the
    // sign-in. FOR SHARE waits for a change of the user's row under way, then reads it anew; a
    // change begun after waits for this session, and its DELETE sees it (see setPassword).
    async create(digest, userId, passwordHash, now) {
      const result = await db.query({
        name: 'vouch-session-create',
        text: `INSERT INTO sessions (digest, user_id, created_at, last_seen_at)
               SELECT $1, id, $4, $4 FROM users
               WHERE id = $2 AND password_hash = $3 AND locked_at IS NULL
               FOR SHARE`,
        values: [digest, userId, passwordHash, now],
      });
      return (result.rowCount ?? 0) > 0;
    },
    async read(digest) {
      const result = await db.query<JoinedSessionRow>({
        name: 'vouch-session-read',
        text: `SELECT s.created_at AS "createdAt", s.last_seen_at AS "lastSeenAt",
                      u.id AS "userId", u.username, u.created_at AS "userCreatedAt"
               FROM sessions s JOIN users u ON u.id = s.user_id
               WHERE s.digest = $1 AND u.locked_at IS NULL`,
        values: [digest],
      });
      const row = result.rows[0];
      return row === undefined ? undefined : sessionOf(row);
    },
    // GREATEST so that a request carrying an older clock never moves the idle clock backwards;
    // the row count says whether the session still exists.
    async touch(digest, now) {
      const result = await db.query({
        name: 'vouch-session-touch',
        text: 'UPDATE sessions SET last_seen_at = GREATEST(last_seen_at, $2) WHERE digest = $1',
        values: [digest, now],
      });
      return (result.rowCount ?? 0) > 0;
    },
    // Dead as isExpired judges: idle since `before` − idle, or begun by `before` − absolute.
    async purge(before, { idleMs, absoluteMs }) {
      const result = await db.query({
        name: 'vouch-sessions-purge',
        text: 'DELETE FROM sessions WHERE last_seen_at <= $1 OR created_at <= $2',
        values: [before - idleMs, before - absoluteMs],
      });
      return result.rowCount ?? 0;
    },
    async remove(digest) {
      await db.query({
        name: 'vouch-session-remove',
        text: 'DELETE FROM sessions WHERE digest = $1',
        values: [digest],
      });
    },
  };
}
