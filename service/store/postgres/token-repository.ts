import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';
import { revokeOnce } from './revoke-once.js';

interface JoinedRow {
  readonly id: number;
  readonly username: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** The statements of the `tokens` table, prepared by each connection on first use. */
export function createTokenRepository(db: Pick<Pool, 'query'>): Repositories['tokens'] {
  return {
    async create(digest, userId, expiresAt, now) {
      await db.query({
        name: 'vouch-token-create',
        text: 'INSERT INTO tokens (digest, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
        values: [digest, userId, now, expiresAt],
      });
    },
    async findLive(digest, now) {
      const result = await db.query<JoinedRow>({
        name: 'vouch-token-live',
        text: `SELECT u.id, u.username, u.created_at AS "createdAt", t.expires_at AS "expiresAt"
               FROM tokens t JOIN users u ON u.id = t.user_id
               WHERE t.digest = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`,
        values: [digest, now],
      });
      const row = result.rows[0];
      if (row === undefined) return undefined;
      return {
        user: { id: row.id, username: row.username, createdAt: row.createdAt },
        expiresAt: row.expiresAt,
      };
    },
    revoke: (digest, now) => revokeOnce(db, 'tokens', digest, now, 'token'),
  };
}
