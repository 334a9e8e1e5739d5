import Database from 'better-sqlite3';
import { type ListedUser, type UserCredentials, type UserRecord } from '../store.js';
import { NotFoundError, UsernameTakenError } from '../../errors.js';
import { changeOnce } from './change-once.js';

/** The `users` table through prepared statements. */
export interface UserRepository {
  create(username: string, passwordHash: string, now: number): UserRecord;
  findCredentials(username: string): UserCredentials | undefined;
  list(): ListedUser[];
  count(): number;
  scopes(userId: number): string[];
  /** `true` once granted, `false` when it already was; `NotFoundError` for an unknown name. */
  grantScope(username: string, scope: string): boolean;
  /** `true` once withdrawn, `false` when it was not held; `NotFoundError` for an unknown name. */
  revokeScope(username: string, scope: string): boolean;
  /**
   * Replaces the password hash and deletes the user's sessions, in one transaction: how many it
   * deleted; `NotFoundError` for an unknown name.
   */
  setPassword(username: string, passwordHash: string): number;
  /** Deletes the user, and by cascade its tokens, sessions and grants; `NotFoundError` when unknown. */
  remove(username: string): void;
  /**
   * Locks the user (`lockedAt` a time) or unlocks it (`null`): `true` once changed, `false` when it
   * already was so; `NotFoundError` for an unknown name.
   */
  setLocked(username: string, lockedAt: number | null): boolean;
}

/** Prepares the statements of the `users` table once, for the life of the connection. */
export function createUserRepository(db: Database.Database): UserRepository {
  const insert = db.prepare<[string, string, number], UserRecord>(
    `INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, ?)
     RETURNING id, username, created_at AS createdAt`,
  );
  const byName = db.prepare<[string], UserCredentials>(
    `SELECT id, username, password_hash AS passwordHash, created_at AS createdAt,
       locked_at AS lockedAt
     FROM users WHERE username = ?`,
  );
  const all = db.prepare<[], ListedUser>(
    'SELECT id, username, created_at AS createdAt, locked_at AS lockedAt FROM users ORDER BY id',
  );
  const count = db.prepare<[], number>('SELECT count(*) FROM users').pluck();
  const scopes = db
    .prepare<[number], string>('SELECT scope FROM user_scopes WHERE user_id = ? ORDER BY scope')
    .pluck();
  const grant = db.prepare<[string, string]>(
    `INSERT OR IGNORE INTO user_scopes (user_id, scope)
     SELECT id, ? FROM users WHERE username = ?`,
  );
  const withdraw = db.prepare<[string, string]>(
    `DELETE FROM user_scopes
     WHERE scope = ? AND user_id = (SELECT id FROM users WHERE username = ?)`,
  );
  const setPassword = db.prepare<[string, string]>(
    'UPDATE users SET password_hash = ? WHERE username = ?',
  );
  const endSessions = db.prepare<[string]>(
    'DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = ?)',
  );
  const remove = db.prepare<[string]>('DELETE FROM users WHERE username = ?');
  const lock = db.prepare<[number | null, string]>(
    'UPDATE users SET locked_at = ? WHERE username = ? AND locked_at IS NULL',
  );
  const unlock = db.prepare<[number | null, string]>(
    'UPDATE users SET locked_at = ? WHERE username = ? AND locked_at IS NOT NULL',
  );
  const exists = db.prepare<[string], number>('SELECT 1 FROM users WHERE username = ?').pluck();
  const user = (username: string) => `user ${username}`;
  const grantOnce = changeOnce(db, grant, exists, user);
  const withdrawOnce = changeOnce(db, withdraw, exists, user);
  const lockOnce = changeOnce(db, lock, exists, user);
  const unlockOnce = changeOnce(db, unlock, exists, user);
  const found = (changes: number, username: string) => {
    if (changes === 0) throw new NotFoundError(user(username));
  };
  const changePassword = db.transaction((username: string, passwordHash: string): number => {
    found(setPassword.run(passwordHash, username).changes, username);
    return endSessions.run(username).changes;
  });

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
    scopes: (userId) => scopes.all(userId),
    grantScope: (username, scope) => grantOnce.immediate(username, scope),
    revokeScope: (username, scope) => withdrawOnce.immediate(username, scope),
    setPassword: (username, passwordHash) => changePassword.immediate(username, passwordHash),
    remove(username) {
      found(remove.run(username).changes, username);
    },
    setLocked: (username, lockedAt) =>
      (lockedAt === null ? unlockOnce : lockOnce).immediate(username, lockedAt),
  };
}
