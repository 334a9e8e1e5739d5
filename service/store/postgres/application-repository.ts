import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';
import { changeGrant } from './change-grant.js';
import { onlyRow } from './only-row.js';
import { revokeOnce } from './revoke-once.js';
import type { ApplicationRecord } from '../store.js';
import { storedScopes } from '../../security/scopes.js';

/** A row as read, its scopes space-separated (`null` for none). */
type Row = Omit<ApplicationRecord, 'scopes'> & { readonly scopes: string | null };

const COLUMNS =
  'id, name, key_prefix AS "keyPrefix", created_at AS "createdAt", revoked_at AS "revokedAt"';
const WITH_SCOPES = `${COLUMNS}, (SELECT string_agg(scope, ' ') FROM application_scopes
  WHERE application_id = applications.id) AS scopes`;

function toRecord(row: Row): ApplicationRecord {
  return { ...row, scopes: storedScopes(row.scopes) };
}

/** The statements of the `applications` table, prepared by each connection on first use. */
export function createApplicationRepository(db: Pick<Pool, 'query'>): Repositories['applications'] {
  return {
    async create(name, keyPrefix, keyDigest, now) {
      const result = await db.query<Row>({
        name: 'vouch-application-create',
        text: `INSERT INTO applications (name, key_prefix, key_digest, created_at)
               VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}, NULL AS scopes`,
        values: [name, keyPrefix, keyDigest, now],
      });
      return toRecord(onlyRow(result));
    },
    async findByKey(keyDigest) {
      const result = await db.query<Row>({
        name: 'vouch-application-by-key',
        text: `SELECT ${WITH_SCOPES} FROM applications WHERE key_digest = $1 AND revoked_at IS NULL`,
        values: [keyDigest],
      });
      const row = result.rows[0];
      return row === undefined ? undefined : toRecord(row);
    },
    async list() {
      const result = await db.query<Row>({
        name: 'vouch-application-list',
        text: `SELECT ${WITH_SCOPES} FROM applications ORDER BY id`,
      });
      return result.rows.map(toRecord);
    },
    revoke: (id, now) => revokeOnce(db, 'applications', id, now, `application ${id}`),
    grantScope: (id, scope) =>
      changeGrant(db, 'applications', 'grant', id, scope, `application ${id}`),
    revokeScope: (id, scope) =>
      changeGrant(db, 'applications', 'revoke', id, scope, `application ${id}`),
  };
}
