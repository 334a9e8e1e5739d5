import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Awaitable } from 'vouch';

/** Whether SQLite refused because another connection holds a lock (`SQLITE_BUSY…`, `SQLITE_LOCKED…`). */
export function isLocked(error: unknown): boolean {
  return (
    error instanceof Database.SqliteError &&
    (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED'))
  );
}

/**
 * Runs `operation`; while the database is locked by another connection, runs it again after a
 * pause (2 ms, doubling up to 50), until `boundMs` have passed; then lets the lock error through.
 * better-sqlite3 is synchronous, so its connections never wait for a lock themselves (a busy
 * timeout of 0): the wait is spent here, between attempts, with the event loop free. An
 * operation is a statement or a whole transaction, which SQLite rolled back when it could not go
 * on, so running it again is safe.
 */
export async function whileLocked<T>(operation: () => Awaitable<T>, boundMs: number): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (let pause = 2; ; pause = Math.min(2 * pause, 50)) {
    try {
      return await operation();
    } catch (error) {
      const remaining = deadline - Date.now();
      if (!isLocked(error) || remaining <= 0) throw error;
      await sleep(Math.min(pause, remaining));
    }
  }
}
