import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';
import { changeGrant } from './change-grant.js';
import { inTransaction } from './in-transaction.js';
import { onlyRow } from './only-row.js';
import { type ListedUser, type UserCredentials, type UserRecord } from '../store.js';
import { NotFoundError, UsernameTakenError } from '../../errors.js';

const UNIQUE_VIOLATION = '23505';

/** The statements of the `users` table, prepared by each connection on first use. */
export function createUserRepository(db: Pick<Pool, 'query' | 'connect'>): Repositories['users'] {
  return {
    async create(username, passwordHash, now) {
      try {
        const result = await db.query<UserRecord>({
          name: 'vouch-user-create',
          text: `INSERT INTO users (username, password_hash, created_at) VALUES ($1, $2, $3)
                 RETURNING id, username, created_at AS "createdAt"`,
          values: [username, passwordHash, now],
        });
        return onlyRow(result);
      } catch (error) {
        if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
          throw new UsernameTakenError(username);
        }
        throw error;
      }
    },
    async findCredentials(username) {
      const result = await db.query<UserCredentials>({
        name: 'vouch-user-credentials',
        text: `SELECT id, username, password_hash AS "passwordHash", created_at AS "createdAt",
                 locked_at AS "lockedAt"
               FROM users WHERE username = $1`,
        values: [username],
      });
      return result.rows[0];
    },
    async list() {
      const result = await db.query<ListedUser>({
        name: 'vouch-user-list',
        text: `SELECT id, username, created_at AS "createdAt", locked_at AS "lockedAt"
               FROM users ORDER BY id`,
      });
      return result.rows;
    },
    async count() {
      const result = await db.query<{ count: number }>({
        name: 'vouch-user-count',
        text: 'SELECT count(*) AS count FROM users',
      });
      return result.rows[0]?.count ?? 0;
    },
    async scopes(userId) {
      const result = await db.query<{ scope: string }>({
        name: 'vouch-user-scopes',
        text: 'SELECT scope FROM user_scopes WHERE user_id = $1 ORDER BY scope COLLATE "C"',
        values: [userId],
      });
      return result.rows.map((row) => row.scope);
    },
    grantScope: (username, scope) =>
      changeGrant(db, 'users', 'grant', username, scope, `user ${username}`),
    revokeScope: (username, scope) =>
      changeGrant(db, 'users', 'revoke', username, scope, `user ${username}`),
    // Two statements, not one: the UPDATE locks the user's row, so a session being started for
    // the old password (which reads the row FOR SHARE) is either committed before it, and seen by
    // the DELETE's fresh snapshot, or waits and finds the new hash.
    setPassword: (username, passwordHash) =>
      inTransaction(db, async (client) => {
        const changed = await client.query<{ id: number }>({
          name: 'vouch-user-set-password',
          text: 'UPDATE users SET password_hash = $2 WHERE username = $1 RETURNING id',
          values: [username, passwordHash],
        });
        const user = changed.rows[0];
        if (user === undefined) throw new NotFoundError(`user ${username}`);
        const ended = await client.query({
          name: 'vouch-user-end-sessions',
          text: 'DELETE FROM sessions WHERE user_id = $1',
          values: [user.id],
        });
        return ended.rowCount ?? 0;
      }),
    async remove(username) {
      const result = await db.query({
        name: 'vouch-user-remove',
        text: 'DELETE FROM users WHERE username = $1',
        values: [username],
      });
      if (result.rowCount === 0) throw new NotFoundError(`user ${username}`);
    },
    async setLocked(username, lockedAt) {
      // One statement: whether the user exists is read in the same snapshot as the change.
      const result = await db.query<{ changed: boolean; found: boolean }>({
        name: 'vouch-user-set-locked',
        text: `WITH changed AS (
                 UPDATE users SET locked_at = $2
                 WHERE username = $1 AND (locked_at IS NULL) = ($2::bigint IS NOT NULL)
                 RETURNING 1
               )
               SELECT EXISTS (SELECT 1 FROM changed) AS changed,
                      EXISTS (SELECT 1 FROM users WHERE username = $1) AS found`,
        values: [username, lockedAt],
      });
      const { changed, found } = onlyRow(result);
      if (!found) throw new NotFoundError(`user ${username}`);
      return changed;
    },
  };
}
