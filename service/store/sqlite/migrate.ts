import type { Database } from 'better-sqlite3';
import { checkNumbering, migrations, tooNew, type Migration } from '../migrations.js';

/**
 * Brings a SQLite database up to the latest schema: each pending migration runs in its own
 * `BEGIN IMMEDIATE` transaction together with the `user_version` bump, so a crash leaves the
 * database at a whole version and two processes starting at once cannot both apply a step.
 * Returns the version reached. Refuses a database newer than this program knows.
 */
export function migrate(db: Database, steps: readonly Migration[] = migrations): number {
  checkNumbering(steps);
  const latest = steps.length;
  const current = userVersion(db);
  if (current > latest) throw tooNew(current, latest);
  for (const step of steps.slice(current)) {
    db.transaction(() => {
      // Another process may have applied it between our read and our write lock.
      if (userVersion(db) >= step.version) return;
      if (step.sqlite !== '') db.exec(step.sqlite);
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
  return userVersion(db);
}

/** The schema version recorded in the database (0 for a new one). */
export function userVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}
