import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';
import { onlyRow } from './only-row.js';
import { revokeOnce } from './revoke-once.js';
import type { ApplicationRecord } from '../store.js';

const COLUMNS =
  'id, name, key_prefix AS "keyPrefix", created_at AS "createdAt", revoked_at AS "revokedAt"';

/** The statements of the `applications` table, prepared by each connection on first use. */
export function createApplicationRepository(db: Pick<Pool, 'query'>): Repositories['applications'] {
  return {
    async create(name, keyPrefix, keyDigest, now) {
      const result = await db.query<ApplicationRecord>({
        name: 'vouch-application-create',
        text: `INSERT INTO applications (name, key_prefix, key_digest, created_at)
               VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        values: [name, keyPrefix, keyDigest, now],
      });
      return onlyRow(result);
    },
    async findByKey(keyDigest) {
      const result = await db.query<ApplicationRecord>({
        name: 'vouch-application-by-key',
        text: `SELECT ${COLUMNS} FROM applications WHERE key_digest = $1 AND revoked_at IS NULL`,
        values: [keyDigest],
      });
      return result.rows[0];
    },
    async list() {
      const result = await db.query<ApplicationRecord>({
        name: 'vouch-application-list',
        text: `SELECT ${COLUMNS} FROM applications ORDER BY id`,
      });
      return result.rows;
    },
    revoke: (id, now) => revokeOnce(db, 'applications', id, now, `application ${id}`),
  };
}
