import pg from 'pg';
import { parseChange } from '../change-message.js';
import type { ChangeWatcher } from '../store.js';
import { toStoreError } from './to-store-error.js';

/** The channel the schema's triggers announce credential changes on (migration 2). */
export const CHANGES_CHANNEL = 'vouch_credentials';

/** Options of {@link listenForChanges}. */
export interface ListenOptions {
  /** How long to wait before connecting again after a failure (default 1000 ms). */
  readonly retryMs?: number;
  /**
   * How often the listening connection proves it is alive (default 5000 ms): a connection cut
   * without a word (a network partition) is found out within this, plus the query timeout.
   */
  readonly heartbeatMs?: number;
}

/**
 * Reports to `watcher` every credential change committed to the database, from a connection of
 * its own that LISTENs on {@link CHANGES_CHANNEL}. `ready` once listening; `lost` when the
 * connection fails, after which it connects again every `retryMs` and is `ready` again once
 * listening. Returns a function that stops listening and closes the connection.
 */
export function listenForChanges(
  config: pg.ClientConfig,
  watcher: ChangeWatcher,
  options: ListenOptions = {},
): () => void {
  const retryMs = options.retryMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 5000;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  // Whether `lost` was said since the last `ready` (or since the start).
  let lost = false;

  const close = (old: pg.Client | undefined) => {
    clearInterval(heartbeat);
    old?.end().catch(() => {});
  };

  const fail = (from: pg.Client, error: unknown) => {
    if (stopped || from !== client) return;
    client = undefined;
    close(from);
    if (!lost) {
      lost = true;
      watcher.lost(toStoreError(error));
    }
    retry = setTimeout(connect, retryMs);
    retry.unref();
  };

  function connect(): void {
    if (stopped) return;
    const attempt = new pg.Client(config);
    client = attempt;
    attempt.on('error', (error) => {
      fail(attempt, error);
    });
    attempt.on('end', () => {
      fail(attempt, new Error('the listening connection ended'));
    });
    attempt.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL) watcher.changed(parseChange(message.payload));
    });
    attempt
      .connect()
      .then(() => attempt.query(`LISTEN ${CHANGES_CHANNEL}`))
      .then(
        () => {
          if (stopped || attempt !== client) return;
          lost = false;
          heartbeat = setInterval(() => {
            attempt.query('SELECT 1').catch((error: unknown) => {
              fail(attempt, error);
            });
          }, heartbeatMs);
          heartbeat.unref();
          watcher.ready();
        },
        (error: unknown) => {
          fail(attempt, error);
        },
      );
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    close(client);
    client = undefined;
  };
}
