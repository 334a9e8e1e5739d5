import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';
import { onlyRow } from './only-row.js';
import { type UserCredentials, type UserRecord } from '../store.js';
import { UsernameTakenError } from '../../errors.js';

const UNIQUE_VIOLATION = '23505';

/** The statements of the `users` table, prepared by each connection on first use. */
export function createUserRepository(db: Pick<Pool, 'query'>): Repositories['users'] {
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
        text: `SELECT id, username, password_hash AS "passwordHash", created_at AS "createdAt"
               FROM users WHERE username = $1`,
        values: [username],
      });
      return result.rows[0];
    },
    async list() {
      const result = await db.query<UserRecord>({
        name: 'vouch-user-list',
        text: 'SELECT id, username, created_at AS "createdAt" FROM users ORDER BY id',
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
  };
}
