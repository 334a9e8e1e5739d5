import type { SessionTimeouts, Store } from './store.js';

/** How often and how late {@link purgeExpiredEvery} purges. */
export interface PurgeSchedule {
  /** Between two purges (default an hour); the first runs at once. */
  readonly intervalMs?: number;
  /**
   * How long after it died a credential is kept (default a day): longer than any instance's
   * clock is off, so that none still takes for live what another deletes.
   */
  readonly graceMs?: number;
}

/** What {@link purgeExpiredEvery} works with. */
export interface PurgeDeps {
  readonly store: Pick<Store, 'purgeExpired'>;
  readonly timeouts: SessionTimeouts;
  readonly now: () => number;
  /** Where the counts and failures go (the app's logger). */
  readonly log: {
    info(fields: object, message: string): void;
    warn(fields: object, message: string): void;
  };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Deletes expired tokens and dead sessions now and every `intervalMs`, so that the database does
 * not grow with credentials nobody can use any more. What it deleted is logged (counts only); a
 * purge that fails (the database unreachable) is logged and tried again at the next turn; one
 * still under way when the next is due is not doubled. Several instances may purge the same
 * database: each deletes what is left. Returns a function that stops, resolving once a purge
 * under way has ended.
 *
 * @example const stop = purgeExpiredEvery({ store, timeouts, now: Date.now, log: app.log });
 */
export function purgeExpiredEvery(
  { store, timeouts, now, log }: PurgeDeps,
  schedule: PurgeSchedule = {},
): () => Promise<void> {
  const intervalMs = schedule.intervalMs ?? HOUR_MS;
  const graceMs = schedule.graceMs ?? DAY_MS;
  let running: Promise<void> | undefined;
  const purge = () => {
    if (running !== undefined) return;
    running = store
      .purgeExpired(now() - graceMs, timeouts)
      .then(
        (purged) => {
          if (purged.tokens + purged.sessions > 0) log.info(purged, 'expired credentials purged');
        },
        (error: unknown) => {
          log.warn({ err: error }, 'purging expired credentials failed; tried again later');
        },
      )
      .finally(() => {
        running = undefined;
      });
  };
  purge();
  const timer = setInterval(purge, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
