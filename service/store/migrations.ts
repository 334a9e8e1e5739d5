import type { Database } from 'better-sqlite3';

/** One step of the schema's history; never edit one that has shipped, add the next. */
export interface Migration {
  /** `PRAGMA user_version` once applied: 1, 2, 3… without gaps. */
  readonly version: number;
  /** What the step does, for error messages. */
  readonly description: string;
  /** The SQL to run, possibly several statements. */
  readonly sql: string;
}

/** The service's schema, oldest first. Times are integer milliseconds since the epoch. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'users, tokens, applications, sessions, settings',
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE tokens (
        digest TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX tokens_by_user ON tokens (user_id);
      CREATE INDEX tokens_by_expiry ON tokens (expires_at);

      CREATE TABLE applications (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        key_prefix TEXT NOT NULL,
        key_digest TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) STRICT;

      CREATE TABLE sessions (
        digest TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX sessions_by_user ON sessions (user_id);

      CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
];

/**
 * Brings a database up to the latest schema: each pending migration runs in its own
 * `BEGIN IMMEDIATE` transaction together with the `user_version` bump, so a crash leaves the
 * database at a whole version and two processes starting at once cannot both apply a step.
 * Returns the version reached. Refuses a database newer than this program knows.
 */
export function migrate(db: Database, steps: readonly Migration[] = migrations): number {
  steps.forEach((step, index) => {
    if (step.version !== index + 1) throw new Error('migrations must be numbered 1, 2, 3…');
  });
  const latest = steps.length;
  const current = userVersion(db);
  if (current > latest) {
    throw new Error(
      `the database is at schema version ${current}, newer than this program knows (${latest})`,
    );
  }
  for (const step of steps.slice(current)) {
    db.transaction(() => {
      // Another process may have applied it between our read and our write lock.
      if (userVersion(db) >= step.version) return;
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
  return userVersion(db);
}

/** The schema version recorded in the database (0 for a new one). */
export function userVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}
