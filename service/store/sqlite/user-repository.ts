import Database from 'better-sqlite3';
import { type UserCredentials, type UserRecord } from '../store.js';
import { UsernameTakenError } from '../../errors.js';

/** The `users` table through prepared statements. */
export interface UserRepository {
  create(username: string, passwordHash: string, now: number): UserRecord;
  findCredentials(username: string): UserCredentials | undefined;
  list(): UserRecord[];
  count(): number;
}

/** Prepares the statements of the `users` table once, for the life of the connection. */
export function createUserRepository(db: Database.Database): UserRepository {
  const insert = db.prepare<[string, string, number], UserRecord>(
    `INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, ?)
     RETURNING id, username, created_at AS createdAt`,
  );
  const byName = db.prepare<[string], UserCredentials>(
    `SELECT id, username, password_hash AS passwordHash, created_at AS createdAt
     FROM users WHERE username = ?`,
  );
  const all = db.prepare<[], UserRecord>(
    'SELECT id, username, created_at AS createdAt FROM users ORDER BY id',
  );
  const count = db.prepare<[], number>('SELECT count(*) FROM users').pluck();

  return {
    create(username, passwordHash, now) {
      try {
        return insert.get(username, passwordHash, now) as UserRecord;
      } catch (error) {
        if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new UsernameTakenError(username);
        }
        throw error;
      }
    },
    findCredentials: (username) => byName.get(username),
    list: () => all.all(),
    count: () => count.get() ?? 0,
  };
}
