import type Database from 'better-sqlite3';
import { type LiveToken } from '../store.js';
import { NotFoundError } from '../../errors.js';

/** The `tokens` table through prepared statements. */
export interface TokenRepository {
  create(digest: string, userId: number, expiresAt: number, now: number): void;
  findLive(digest: string, now: number): LiveToken | undefined;
  /** `true` once revoked now, `false` when it already was; `NotFoundError` when unknown. */
  revoke(digest: string, now: number): boolean;
}

interface JoinedRow {
  readonly id: number;
  readonly username: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Prepares the statements of the `tokens` table once, for the life of the connection. */
export function createTokenRepository(db: Database.Database): TokenRepository {
  const insert = db.prepare<[string, number, number, number]>(
    'INSERT INTO tokens (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const live = db.prepare<[string, number], JoinedRow>(
    `SELECT u.id, u.username, u.created_at AS createdAt, t.expires_at AS expiresAt
     FROM tokens t JOIN users u ON u.id = t.user_id
     WHERE t.digest = ? AND t.revoked_at IS NULL AND t.expires_at > ?`,
  );
  const revoke = db.prepare<[number, string]>(
    'UPDATE tokens SET revoked_at = ? WHERE digest = ? AND revoked_at IS NULL',
  );
  const exists = db.prepare<[string], number>('SELECT 1 FROM tokens WHERE digest = ?').pluck();
  const revokeOnce = db.transaction((digest: string, now: number): boolean => {
    if (revoke.run(now, digest).changes > 0) return true;
    if (exists.get(digest) === undefined) throw new NotFoundError('token');
    return false;
  });

  return {
    create(digest, userId, expiresAt, now) {
      insert.run(digest, userId, now, expiresAt);
    },
    findLive(digest, now) {
      const row = live.get(digest, now);
      if (row === undefined) return undefined;
      return {
        user: { id: row.id, username: row.username, createdAt: row.createdAt },
        expiresAt: row.expiresAt,
      };
    },
    revoke: (digest, now) => revokeOnce.immediate(digest, now),
  };
}
