import type Database from 'better-sqlite3';
import { type ApplicationRecord } from '../store.js';
import { NotFoundError } from '../../errors.js';

/** The `applications` table through prepared statements. */
export interface ApplicationRepository {
  create(name: string, keyPrefix: string, keyDigest: string, now: number): ApplicationRecord;
  findByKey(keyDigest: string): ApplicationRecord | undefined;
  list(): ApplicationRecord[];
  revoke(id: number, now: number): boolean;
}

const COLUMNS =
  'id, name, key_prefix AS keyPrefix, created_at AS createdAt, revoked_at AS revokedAt';

/** Prepares the statements of the `applications` table once, for the life of the connection. */
export function createApplicationRepository(db: Database.Database): ApplicationRepository {
  const insert = db.prepare<[string, string, string, number], ApplicationRecord>(
    `INSERT INTO applications (name, key_prefix, key_digest, created_at) VALUES (?, ?, ?, ?)
     RETURNING ${COLUMNS}`,
  );
  const byKey = db.prepare<[string], ApplicationRecord>(
    `SELECT ${COLUMNS} FROM applications WHERE key_digest = ? AND revoked_at IS NULL`,
  );
  const all = db.prepare<[], ApplicationRecord>(`SELECT ${COLUMNS} FROM applications ORDER BY id`);
  const revoke = db.prepare<[number, number]>(
    'UPDATE applications SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const exists = db.prepare<[number], number>('SELECT 1 FROM applications WHERE id = ?').pluck();
  const revokeOnce = db.transaction((id: number, now: number): boolean => {
    if (revoke.run(now, id).changes > 0) return true;
    if (exists.get(id) === undefined) throw new NotFoundError(`application ${id}`);
    return false;
  });

  return {
    create: (name, keyPrefix, keyDigest, now) =>
      insert.get(name, keyPrefix, keyDigest, now) as ApplicationRecord,
    findByKey: (keyDigest) => byKey.get(keyDigest),
    list: () => all.all(),
    revoke: (id, now) => revokeOnce.immediate(id, now),
  };
}
