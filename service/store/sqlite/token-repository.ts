import type Database from 'better-sqlite3';
import type { UserRecord } from '../store.js';

/** The `tokens` table through prepared statements. */
export interface TokenRepository {
  create(digest: string, userId: number, expiresAt: number, now: number): void;
  findUser(digest: string, now: number): UserRecord | undefined;
  revoke(digest: string, now: number): boolean;
}

/** Prepares the statements of the `tokens` table once, for the life of the connection. */
export function createTokenRepository(db: Database.Database): TokenRepository {
  const insert = db.prepare<[string, number, number, number]>(
    'INSERT INTO tokens (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const live = db.prepare<[string, number], UserRecord>(
    `SELECT u.id, u.username, u.created_at AS createdAt
     FROM tokens t JOIN users u ON u.id = t.user_id
     WHERE t.digest = ? AND t.revoked_at IS NULL AND t.expires_at > ?`,
  );
  const revoke = db.prepare<[number, string]>(
    'UPDATE tokens SET revoked_at = ? WHERE digest = ? AND revoked_at IS NULL',
  );

  return {
    create(digest, userId, expiresAt, now) {
      insert.run(digest, userId, now, expiresAt);
    },
    findUser: (digest, now) => live.get(digest, now),
    revoke: (digest, now) => revoke.run(now, digest).changes > 0,
  };
}
