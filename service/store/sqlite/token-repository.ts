import type Database from 'better-sqlite3';
import { type LiveToken } from '../store.js';
import { effectiveScopes } from '../../security/scopes.js';
import { NotFoundError } from '../../errors.js';
import { changeOnce } from './change-once.js';

/** The `tokens` table through prepared statements. */
export interface TokenRepository {
  create(
    digest: string,
    userId: number,
    expiresAt: number,
    now: number,
    scopes: readonly string[],
  ): void;
  findLive(digest: string, now: number): LiveToken | undefined;
  /** `true` once revoked now, `false` when it already was; `NotFoundError` when unknown. */
  revoke(digest: string, now: number): boolean;
  /**
   * Revokes the user's tokens not revoked yet, in one transaction: how many had not expired at
   * `now`; `NotFoundError` for an unknown name.
   */
  revokeOfUser(username: string, now: number): number;
  /** Deletes the tokens expired by `before`, revoked or not: how many. */
  purge(before: number): number;
}

interface JoinedRow {
  readonly id: number;
  readonly username: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly issued: string;
  readonly granted: string | null;
}

/** Prepares the statements of the `tokens` table once, for the life of the connection. */
export function createTokenRepository(db: Database.Database): TokenRepository {
  // The token counts its user's grants as they are now, and none given later (migration 4).
  const insert = db.prepare<[string, number, number, number, string, number]>(
    `INSERT INTO tokens (digest, user_id, created_at, expires_at, scopes, last_grant_id)
     VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(id), 0) FROM user_scopes WHERE user_id = ?))`,
  );
  const live = db.prepare<[string, number], JoinedRow>(
    `SELECT u.id, u.username, u.created_at AS createdAt, t.expires_at AS expiresAt,
       t.scopes AS issued,
       (SELECT group_concat(scope, ' ') FROM user_scopes
        WHERE user_id = u.id AND id <= t.last_grant_id) AS granted
     FROM tokens t JOIN users u ON u.id = t.user_id
     WHERE t.digest = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND u.locked_at IS NULL`,
  );
  const revoke = db.prepare<[number, string]>(
    'UPDATE tokens SET revoked_at = ? WHERE digest = ? AND revoked_at IS NULL',
  );
  const exists = db.prepare<[string], number>('SELECT 1 FROM tokens WHERE digest = ?').pluck();
  // The error never names the digest.
  const revokeOnce = changeOnce(db, revoke, exists, () => 'token');
  // Expired ones too: whether a token has expired is for the instances' clocks to say.
  const revokeOfUser = db
    .prepare<[number, string], number>(
      `UPDATE tokens SET revoked_at = ?
       WHERE revoked_at IS NULL AND user_id = (SELECT id FROM users WHERE username = ?)
       RETURNING expires_at`,
    )
    .pluck();
  const purge = db.prepare<[number]>('DELETE FROM tokens WHERE expires_at <= ?');
  const userExists = db.prepare<[string], number>('SELECT 1 FROM users WHERE username = ?').pluck();
  const revokeAllOf = db.transaction((username: string, now: number): number => {
    if (userExists.get(username) === undefined) throw new NotFoundError(`user ${username}`);
    return revokeOfUser.all(now, username).filter((expiresAt) => expiresAt > now).length;
  });

  return {
    create(digest, userId, expiresAt, now, scopes) {
      insert.run(digest, userId, now, expiresAt, scopes.join(' '), userId);
    },
    findLive(digest, now) {
      const row = live.get(digest, now);
      if (row === undefined) return undefined;
      return {
        user: { id: row.id, username: row.username, createdAt: row.createdAt },
        expiresAt: row.expiresAt,
        scopes: effectiveScopes(row.issued, row.granted),
      };
    },
    revoke: (digest, now) => revokeOnce.immediate(digest, now),
    revokeOfUser: (username, now) => revokeAllOf.immediate(username, now),
    purge: (before) => purge.run(before).changes,
  };
}
