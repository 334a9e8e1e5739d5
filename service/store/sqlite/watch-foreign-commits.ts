import type Database from 'better-sqlite3';
import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ChangeWatcher } from '../store.js';
import { isLocked } from './while-locked.js';

/** How often a notice is settled again while another connection holds the write lock. */
const SETTLE_RETRY_MS = 5;
/** How long the lock may be held elsewhere before the watch counts as lost (and says so). */
const LOST_AFTER_MS = 1000;

/**
 * Tells `watcher` when another connection (another process: the CLI, a second service) commits to
 * the SQLite file at `path`, once the commit is visible to `db`'s reads, as `changed({ kind:
 * 'all' })`. `ready` at once; `pending` while another connection holds the write lock (it may
 * commit at any moment), `lost` too if that lasts a second, and `ready` again once the lock is
 * released; `lost` for good when the file cannot be watched. Returns a function that stops
 * watching. An in-memory database has no other connection, so nothing is watched.
 *
 * The file system says when the database's files are written (inotify on Linux; no polling, and
 * nothing on the request path). A write is not yet a commit, so each notice is settled with the
 * database itself: `BEGIN IMMEDIATE` takes the write lock, which a writer holds until its commit
 * is complete and published, and `PRAGMA data_version` then says whether any other connection
 * committed since the last look (this connection's own commits never change it). The connection
 * never waits for a lock (busy timeout 0): while another holds it, settling is tried again every
 * few milliseconds, with the event loop free.
 */
export function watchForeignCommits(
  db: Database.Database,
  path: string,
  watcher: ChangeWatcher,
  toError: (error: unknown) => Error,
): () => void {
  watcher.ready();
  if (path === ':memory:' || path === '') return () => {};
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const settleNow = db.transaction(() => dataVersion.get() as number);
  let fsWatcher: FSWatcher | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  let seen = 0;
  const stop = () => {
    stopped = true;
    clearTimeout(retry);
    fsWatcher?.close();
  };
  const fail = (error: unknown) => {
    if (stopped) return;
    stop();
    watcher.lost(toError(error));
  };

  /** Settles a notice: `'settled'`, `'failed'`, or the lock error while another connection writes. */
  const settle = (): 'settled' | 'failed' | { readonly locked: unknown } => {
    let version: number;
    try {
      version = settleNow.immediate();
    } catch (error) {
      if (isLocked(error)) return { locked: error };
      fail(error);
      return 'failed';
    }
    if (version !== seen) {
      seen = version;
      watcher.changed({ kind: 'all' });
    }
    return 'settled';
  };
  const settleLater = (since: number, reported: boolean) => {
    retry = setTimeout(() => {
      retry = undefined;
      if (stopped) return;
      const outcome = settle();
      if (outcome === 'settled') watcher.ready();
      if (typeof outcome === 'string') return;
      const lasting = !reported && Date.now() - since >= LOST_AFTER_MS;
      if (lasting) watcher.lost(toError(outcome.locked));
      settleLater(since, reported || lasting);
    }, SETTLE_RETRY_MS);
    retry.unref();
  };

  try {
    const file = realpathSync(path);
    // The -wal, -shm and -journal files are named after the database file, beside it.
    const name = basename(file);
    seen = dataVersion.get() as number;
    fsWatcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (stopped || retry !== undefined) return;
      if (changed !== null && !changed.startsWith(name)) return;
      if (typeof settle() === 'string') return;
      watcher.pending();
      settleLater(Date.now(), false);
    });
    fsWatcher.on('error', fail);
  } catch (error) {
    fail(error);
  }
  return stop;
}
