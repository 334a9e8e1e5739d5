import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';
import { onlyRow } from './only-row.js';
import { revokeOnce } from './revoke-once.js';
import { effectiveScopes } from '../../security/scopes.js';
import { NotFoundError } from '../../errors.js';

interface JoinedRow {
  readonly id: number;
  readonly username: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly issued: string;
  readonly granted: string | null;
}

/** The statements of the `tokens` table, prepared by each connection on first use. */
export function createTokenRepository(db: Pick<Pool, 'query'>): Repositories['tokens'] {
  return {
    async create(digest, userId, expiresAt, now, scopes) {
      await db.query({
        name: 'vouch-token-create',
        // The token counts its user's grants as they are now, and none given later (migration 4).
        text: `INSERT INTO tokens (digest, user_id, created_at, expires_at, scopes, last_grant_id)
               VALUES ($1, $2, $3, $4, $5,
                 (SELECT coalesce(max(id), 0) FROM user_scopes WHERE user_id = $2))`,
        values: [digest, userId, now, expiresAt, scopes.join(' ')],
      });
    },
    async findLive(digest, now) {
      const result = await db.query<JoinedRow>({
        name: 'vouch-token-live',
        text: `SELECT u.id, u.username, u.created_at AS "createdAt", t.expires_at AS "expiresAt",
                 t.scopes AS issued,
                 (SELECT string_agg(scope, ' ') FROM user_scopes
                  WHERE user_id = u.id AND id <= t.last_grant_id) AS granted
               FROM tokens t JOIN users u ON u.id = t.user_id
               WHERE t.digest = $1 AND t.revoked_at IS NULL AND t.expires_at > $2
                 AND u.locked_at IS NULL`,
        values: [digest, now],
      });
      const row = result.rows[0];
      if (row === undefined) return undefined;
      return {
        user: { id: row.id, username: row.username, createdAt: row.createdAt },
        expiresAt: row.expiresAt,
        scopes: effectiveScopes(row.issued, row.granted),
      };
    },
    revoke: (digest, now) => revokeOnce(db, 'tokens', digest, now, 'token'),
    // The tokens_revoked trigger announces each row: instances forget what they no longer need.
    async purge(before) {
      const result = await db.query({
        name: 'vouch-tokens-purge',
        text: 'DELETE FROM tokens WHERE expires_at <= $1',
        values: [before],
      });
      return result.rowCount ?? 0;
    },
    async revokeOfUser(username, now) {
      // One statement, so one transaction that reads whether the user exists in the snapshot it
      // changes. Expired tokens too: whether one has expired is for the instances' clocks to say.
      // The tokens_revoked trigger announces each row.
      const result = await db.query<{ found: boolean; live: number }>({
        name: 'vouch-tokens-revoke-of-user',
        text: `WITH holder AS (SELECT id FROM users WHERE username = $1),
                    revoked AS (
                      UPDATE tokens SET revoked_at = $2
                      WHERE user_id IN (SELECT id FROM holder) AND revoked_at IS NULL
                      RETURNING expires_at
                    )
               SELECT EXISTS (SELECT 1 FROM holder) AS found,
                      (SELECT count(*) FROM revoked WHERE expires_at > $2) AS live`,
        values: [username, now],
      });
      const { found, live } = onlyRow(result);
      if (!found) throw new NotFoundError(`user ${username}`);
      return live;
    },
  };
}
