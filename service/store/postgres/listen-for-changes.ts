import pg from 'pg';
import { heartbeat, type HeartbeatOptions } from '../../internal/heartbeat.js';
import { parseChange } from '../change-message.js';
import type { ChangeWatcher } from '../store.js';
import { toStoreError } from './to-store-error.js';

/** The channel the schema's triggers announce credential changes on (migration 2). */
export const CHANGES_CHANNEL = 'vouch_credentials';

/** The `application_name` of the listening connection, as `pg_stat_activity` shows it. */
export const LISTENER_NAME = 'vouch-listen';

/** Options of {@link listenForChanges}. */
export interface ListenOptions {
  /** How long to wait before connecting again after a failure (default 1000 ms). */
  readonly retryMs?: number;
  /**
   * How the listening connection proves it is alive (`SELECT 1` every 250 ms, answered within
   * 500 ms, by default): a connection that is cut without a word or falls silent (a network
   * partition, a hung server) is found out within their sum.
   */
  readonly heartbeat?: HeartbeatOptions;
}

/**
 * Reports to `watcher` every credential change committed to the database, from a connection of
 * its own that LISTENs on {@link CHANGES_CHANNEL}. `ready` once listening; `lost` when the
 * connection fails or falls silent, after which it connects again every `retryMs` and is `ready`
 * again once listening. Returns a function that stops listening and closes the connection.
 */
export function listenForChanges(
  config: pg.ClientConfig,
  watcher: ChangeWatcher,
  options: ListenOptions = {},
): () => void {
  const retryMs = options.retryMs ?? 1000;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopHeartbeat: (() => void) | undefined;
  // Whether `lost` was said since the last `ready` (or since the start).
  let lost = false;

  const close = (old: pg.Client | undefined) => {
    stopHeartbeat?.();
    stopHeartbeat = undefined;
    // With a query under way (the unanswered heartbeat), end() drops the socket at once.
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
    const attempt = new pg.Client({ ...config, application_name: LISTENER_NAME });
    client = attempt;
    attempt.on('error', (error) => {
      fail(attempt, error);
    });
    attempt.on('end', () => {
      fail(attempt, new Error('the listening connection ended'));
    });
    attempt.on('notification', (message) => {
      // The connection ends after stop() returns: what it still delivers is no longer asked for.
      if (stopped || message.channel !== CHANGES_CHANNEL) return;
      watcher.changed(parseChange(message.payload));
    });
    attempt
      .connect()
      .then(() => attempt.query(`LISTEN ${CHANGES_CHANNEL}`))
      .then(
        () => {
          if (stopped || attempt !== client) return;
          lost = false;
          stopHeartbeat = heartbeat(
            () =>
              attempt.query('SELECT 1').catch((error: unknown) => {
                fail(attempt, error);
              }),
            (error) => {
              fail(attempt, error);
            },
            'the listening connection to PostgreSQL',
            options.heartbeat,
          );
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
