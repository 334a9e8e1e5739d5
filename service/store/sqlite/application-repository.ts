import type Database from 'better-sqlite3';
import { type ApplicationRecord } from '../store.js';
import { storedScopes } from '../../security/scopes.js';
import { changeOnce } from './change-once.js';

/** The `applications` table through prepared statements. */
export interface ApplicationRepository {
  create(name: string, keyPrefix: string, keyDigest: string, now: number): ApplicationRecord;
  findByKey(keyDigest: string): ApplicationRecord | undefined;
  list(): ApplicationRecord[];
  revoke(id: number, now: number): boolean;
  /** `true` once granted, `false` when it already was; `NotFoundError` for an unknown id. */
  grantScope(id: number, scope: string): boolean;
  /** `true` once withdrawn, `false` when it was not held; `NotFoundError` for an unknown id. */
  revokeScope(id: number, scope: string): boolean;
}

/** A row as read, its scopes space-separated (`null` for none). */
type Row = Omit<ApplicationRecord, 'scopes'> & { readonly scopes: string | null };

const COLUMNS =
  'id, name, key_prefix AS keyPrefix, created_at AS createdAt, revoked_at AS revokedAt';
const WITH_SCOPES = `${COLUMNS}, (SELECT group_concat(scope, ' ') FROM application_scopes
  WHERE application_id = applications.id) AS scopes`;

function toRecord(row: Row): ApplicationRecord {
  return { ...row, scopes: storedScopes(row.scopes) };
}

/** Prepares the statements of the `applications` table once, for the life of the connection. */
export function createApplicationRepository(db: Database.Database): ApplicationRepository {
  const insert = db.prepare<[string, string, string, number], Row>(
    `INSERT INTO applications (name, key_prefix, key_digest, created_at) VALUES (?, ?, ?, ?)
     RETURNING ${COLUMNS}, NULL AS scopes`,
  );
  const byKey = db.prepare<[string], Row>(
    `SELECT ${WITH_SCOPES} FROM applications WHERE key_digest = ? AND revoked_at IS NULL`,
  );
  const all = db.prepare<[], Row>(`SELECT ${WITH_SCOPES} FROM applications ORDER BY id`);
  const revoke = db.prepare<[number, number]>(
    'UPDATE applications SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const exists = db.prepare<[number], number>('SELECT 1 FROM applications WHERE id = ?').pluck();
  const grant = db.prepare<[string, number]>(
    `INSERT OR IGNORE INTO application_scopes (application_id, scope)
     SELECT id, ? FROM applications WHERE id = ?`,
  );
  const withdraw = db.prepare<[string, number]>(
    'DELETE FROM application_scopes WHERE scope = ? AND application_id = ?',
  );
  const application = (id: number) => `application ${id}`;
  const revokeOnce = changeOnce(db, revoke, exists, application);
  const grantOnce = changeOnce(db, grant, exists, application);
  const withdrawOnce = changeOnce(db, withdraw, exists, application);

  return {
    create: (name, keyPrefix, keyDigest, now) =>
      toRecord(insert.get(name, keyPrefix, keyDigest, now) as Row),
    findByKey(keyDigest) {
      const row = byKey.get(keyDigest);
      return row === undefined ? undefined : toRecord(row);
    },
    list: () => all.all().map(toRecord),
    revoke: (id, now) => revokeOnce.immediate(id, now),
    grantScope: (id, scope) => grantOnce.immediate(id, scope),
    revokeScope: (id, scope) => withdrawOnce.immediate(id, scope),
  };
}
