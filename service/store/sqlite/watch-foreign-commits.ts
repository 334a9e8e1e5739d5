import type Database from 'better-sqlite3';
import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Calls `listener` after another connection (another process: the CLI, a second service) commits
 * to the SQLite file at `path`, once the commit is visible to `db`'s reads; `onError` instead,
 * once, when that can no longer be told. Returns a function that stops watching. An in-memory
 * database has no other connection, so nothing is watched.
 *
 * The file system says when the database's files are written (inotify on Linux; no polling, and
 * nothing on the request path). A write is not yet a commit, so each notice is settled with the
 * database itself: `BEGIN IMMEDIATE` waits for the write lock, which the writer holds until its
 * commit is complete and published, and `PRAGMA data_version` then says whether any other
 * connection committed since the last look (this connection's own commits never change it).
 */
export function watchForeignCommits(
  db: Database.Database,
  path: string,
  listener: () => void,
  onError: (error: Error) => void,
): () => void {
  if (path === ':memory:' || path === '') return () => {};
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const settle = db.transaction(() => dataVersion.get() as number);
  let watcher: FSWatcher | undefined;
  let stopped = false;

  const stop = () => {
    stopped = true;
    watcher?.close();
  };
  const fail = (error: unknown) => {
    if (stopped) return;
    stop();
    onError(error instanceof Error ? error : new Error(String(error)));
  };

  try {
    const file = realpathSync(path);
    // The -wal, -shm and -journal files are named after the database file, beside it.
    const name = basename(file);
    let seen = dataVersion.get() as number;
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (stopped || (changed !== null && !changed.startsWith(name))) return;
      let version: number;
      try {
        version = settle.immediate();
      } catch (error) {
        fail(error);
        return;
      }
      if (version === seen) return;
      seen = version;
      listener();
    });
    watcher.on('error', fail);
  } catch (error) {
    fail(error);
  }
  return stop;
}
