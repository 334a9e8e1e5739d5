import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { NoDatabaseError } from '../../errors.js';

// Tables every version of the service's schema has, since the first.
const FIRST_TABLES = ['users', 'tokens', 'applications', 'sessions', 'settings'];

/**
 * Opens a SQLite database the service made, as it is; refuses anything else with a
 * {@link NoDatabaseError} naming `path`: no file, a folder, an empty file, another kind of file,
 * another program's database. Whatever is refused is only read, and left as it was: SQLite writes
 * nothing for a read, and removes on closing the `-wal` and `-shm` files a read may have created.
 */
export function openExistingDatabase(path: string, timeout: number): Database.Database {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) throw new NoDatabaseError(path, 'missing');
  if (!stats.isFile()) throw new NoDatabaseError(path, 'not vouch', 'a folder');
  if (stats.size === 0) throw new NoDatabaseError(path, 'not vouch', 'an empty file');
  const db = new Database(path, { timeout, fileMustExist: true });
  try {
    const why = notVouchBecause(db);
    if (why !== undefined) throw new NoDatabaseError(path, 'not vouch', why);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Why the database is not one the service made, or `undefined` when it is. */
function notVouchBecause(db: Database.Database): string | undefined {
  let version: number;
  let tables: string[];
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    tables = db
      .prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .pluck()
      .all();
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
      return 'not a SQLite file';
    }
    throw error;
  }
  if (version === 0 && tables.length === 0) return 'an empty database';
  if (version === 0 || FIRST_TABLES.some((table) => !tables.includes(table))) {
    return "another program's SQLite database";
  }
  return undefined;
}
