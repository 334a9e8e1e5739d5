import { MigrationError } from '../errors.js';

/**
 * One step of the schema's history, in each engine's dialect; never edit one that has shipped,
 * add the next. Both engines count the same versions, so a database of either is at a version
 * that means the same thing.
 */
export interface Migration {
  /** The schema version once applied: 1, 2, 3… without gaps. */
  readonly version: number;
  /** What the step does, for error messages. */
  readonly description: string;
  /** The step in SQLite's dialect, possibly several statements, possibly none. */
  readonly sqlite: string;
  /** The step in PostgreSQL's dialect, possibly several statements, possibly none. */
  readonly postgres: string;
}

/** The service's schema, oldest first. Times are integer milliseconds since the epoch. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'users, tokens, applications, sessions, settings',
    sqlite: `
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
    postgres: `
      CREATE TABLE users (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        username text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at bigint NOT NULL
      );

      CREATE TABLE tokens (
        digest text PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        revoked_at bigint
      );
      CREATE INDEX tokens_by_user ON tokens (user_id);
      CREATE INDEX tokens_by_expiry ON tokens (expires_at);

      CREATE TABLE applications (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        key_prefix text NOT NULL,
        key_digest text NOT NULL UNIQUE,
        created_at bigint NOT NULL,
        revoked_at bigint
      );

      CREATE TABLE sessions (
        digest text PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at bigint NOT NULL,
        last_seen_at bigint NOT NULL
      );
      CREATE INDEX sessions_by_user ON sessions (user_id);

      CREATE TABLE settings (
        name text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: 'failed sign-in counters and change notifications shared by instances',
    // One machine: SQLite's instances count failures in memory and see changes through the file.
    sqlite: '',
    // The counters' table has the shape rate-limiter-flexible's RateLimiterPostgres expects.
    // Every change that can take a credential away is announced on the vouch_credentials channel
    // when its transaction commits, whoever makes it (the service, the CLI, a cascade, psql).
    postgres: `
      CREATE TABLE login_failures (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      );

      CREATE FUNCTION vouch_credential_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('vouch_credentials', TG_ARGV[0] || ':' || OLD.digest);
        RETURN NULL;
      END
      $$;
      CREATE FUNCTION vouch_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('vouch_credentials', TG_ARGV[0]);
        RETURN NULL;
      END
      $$;

      CREATE TRIGGER tokens_revoked AFTER UPDATE OF revoked_at OR DELETE ON tokens
        FOR EACH ROW EXECUTE FUNCTION vouch_credential_row_changed('token');
      CREATE TRIGGER sessions_deleted AFTER DELETE ON sessions
        FOR EACH ROW EXECUTE FUNCTION vouch_credential_row_changed('session');
      CREATE TRIGGER applications_changed AFTER UPDATE OR DELETE ON applications
        FOR EACH STATEMENT EXECUTE FUNCTION vouch_credentials_changed('applications');
      CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
        FOR EACH STATEMENT EXECUTE FUNCTION vouch_credentials_changed('all');
    `,
  },
  {
    version: 3,
    description: 'scopes granted to users and applications, and carried by tokens',
    // A token keeps the scopes it was issued with, space-separated (RFC 6749 §3.3); tokens issued
    // before carry none.
    sqlite: `
      CREATE TABLE user_scopes (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        scope TEXT NOT NULL,
        PRIMARY KEY (user_id, scope)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE application_scopes (
        application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        scope TEXT NOT NULL,
        PRIMARY KEY (application_id, scope)
      ) STRICT, WITHOUT ROWID;

      ALTER TABLE tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT '';
    `,
    // A grant withdrawn takes a scope away from the user's tokens or the application's key: every
    // change of grants is announced, so that instances forget what they hold.
    postgres: `
      CREATE TABLE user_scopes (
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        scope text NOT NULL,
        PRIMARY KEY (user_id, scope)
      );

      CREATE TABLE application_scopes (
        application_id bigint NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        scope text NOT NULL,
        PRIMARY KEY (application_id, scope)
      );

      ALTER TABLE tokens ADD COLUMN scopes text NOT NULL DEFAULT '';

      CREATE TRIGGER user_scopes_changed AFTER INSERT OR UPDATE OR DELETE ON user_scopes
        FOR EACH STATEMENT EXECUTE FUNCTION vouch_credentials_changed('all');
      CREATE TRIGGER application_scopes_changed
        AFTER INSERT OR UPDATE OR DELETE ON application_scopes
        FOR EACH STATEMENT EXECUTE FUNCTION vouch_credentials_changed('applications');
    `,
  },
  {
    version: 4,
    description: "a scope withdrawn from a user stays withdrawn from the user's earlier tokens",
    // Each grant to a user gets an id that is never given again (a grant withdrawn and given
    // again is a new row with a greater id); a token records the greatest id among its user's
    // grants when it was issued, and counts only grants up to it. Ids, not times: a withdrawal
    // and a new grant in the same millisecond as the token are still told apart. A key has no
    // issue time: a grant to it counts at
    // once, so its grants need no id. Tokens issued before this step count the grants that
    // exist when it runs.
    sqlite: `
      CREATE TABLE user_scopes_with_ids (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        scope TEXT NOT NULL,
        UNIQUE (user_id, scope)
      ) STRICT;
      INSERT INTO user_scopes_with_ids (user_id, scope)
        SELECT user_id, scope FROM user_scopes ORDER BY user_id, scope;
      DROP TABLE user_scopes;
      ALTER TABLE user_scopes_with_ids RENAME TO user_scopes;

      ALTER TABLE tokens ADD COLUMN last_grant_id INTEGER NOT NULL DEFAULT 0;
      UPDATE tokens SET last_grant_id = (SELECT coalesce(max(id), 0) FROM user_scopes);
    `,
    // Adding an identity column numbers the existing rows. The grants' trigger stays as it is.
    postgres: `
      ALTER TABLE user_scopes ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY UNIQUE;

      ALTER TABLE tokens ADD COLUMN last_grant_id bigint NOT NULL DEFAULT 0;
      UPDATE tokens SET last_grant_id = (SELECT coalesce(max(id), 0) FROM user_scopes);
    `,
  },
  {
    version: 5,
    description: 'users locked out of every credential until unlocked',
    // While locked_at is set, the user's password, tokens and sessions are refused. Locking is an
    // UPDATE of users, which PostgreSQL already announces (users_changed, migration 2).
    sqlite: 'ALTER TABLE users ADD COLUMN locked_at INTEGER;',
    postgres: 'ALTER TABLE users ADD COLUMN locked_at bigint;',
  },
];

/** Refuses a list of steps that is not numbered 1, 2, 3… (a programming error). */
export function checkNumbering(steps: readonly Migration[]): void {
  steps.forEach((step, index) => {
    if (step.version !== index + 1)
      throw new MigrationError('migrations must be numbered 1, 2, 3…');
  });
}

/** The error for a database migrated by a newer program than this one. */
export function tooNew(current: number, latest: number): MigrationError {
  return new MigrationError(
    `the database is at schema version ${current}, newer than this program knows (${latest})`,
  );
}
