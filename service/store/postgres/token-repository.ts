import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';
import { onlyRow } from './only-row.js';
import { NotFoundError } from '../../errors.js';

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
    async revoke(digest, now) {
      // One statement: the outer query sees the table as it was before the update.
      const result = await db.query<{ revoked: boolean; found: boolean }>({
        name: 'vouch-token-revoke',
        text: `WITH revoked AS (
                 UPDATE tokens SET revoked_at = $2 WHERE digest = $1 AND revoked_at IS NULL
                 RETURNING 1
               )
               SELECT EXISTS (SELECT 1 FROM revoked) AS revoked,
                      EXISTS (SELECT 1 FROM tokens WHERE digest = $1) AS found`,
        values: [digest, now],
      });
      const { revoked, found } = onlyRow(result);
      if (!found) throw new NotFoundError('token');
      return revoked;
    },
  };
}
