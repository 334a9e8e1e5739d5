import { Redis } from 'ioredis';
import { heartbeat } from '../internal/heartbeat.js';

/** What the service's keys and channel begin with unless `REDIS_KEY_PREFIX` says otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'vouch:';

/** Options of {@link openRedis}. */
export interface OpenRedisOptions {
  /** What every key and channel of the service begins with (default {@link DEFAULT_REDIS_KEY_PREFIX}). */
  readonly keyPrefix?: string;
  /** How long connecting or a command may take, in milliseconds (default 1000). */
  readonly timeoutMs?: number;
  /** Called once when Redis stops answering: cut, or silent (no secrets in the error). */
  readonly onDown?: (error: Error) => void;
  /** Called once when it answers again after `onDown`. */
  readonly onUp?: () => void;
}

/** A connection to the Redis server instances share, and the means to open more. */
export interface RedisConnection {
  /** The connection for commands. It never queues: while Redis is down a command fails at once. */
  readonly client: Redis;
  /** The logical database the URL names: pub/sub channels are server-wide, so they carry it. */
  readonly database: number;
  /** What every key and channel of the service begins with: deployments sharing a database differ by it. */
  readonly keyPrefix: string;
  /**
   * A new connection with the same settings, not yet connected (for SUBSCRIBE). Whoever uses it
   * proves it alive (see {@link keepAlive}).
   */
  duplicate(): Redis;
  /** Closes the command connection. */
  close(): Promise<void>;
}

/**
 * Connects to the Redis server a `redis://` (or `rediss://`) URL names and proves it answers;
 * rejects, having given up, when it cannot within the timeout (a server that accepts the
 * connection but answers nothing included). Afterwards the connection reconnects by itself
 * whenever it is cut or Redis falls silent, backing off up to two seconds between attempts, and
 * reports each outage once.
 *
 * @example const redis = await openRedis('redis://127.0.0.1:6379/0');
 */
export async function openRedis(
  url: string,
  options: OpenRedisOptions = {},
): Promise<RedisConnection> {
  const timeoutMs = options.timeoutMs ?? 1000;
  const settings = {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // Fail at once while disconnected: callers fall back rather than wait.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResubscribe: false,
    retryStrategy: (attempt: number) => Math.min(100 * 2 ** attempt, 2000),
    // A connection dropped for silence would otherwise wait two seconds for a goodbye.
    disconnectTimeout: 100,
  };
  const client = new Redis(url, settings);
  // Connection attempts report their failures here; an outage is reported once, below.
  let failure: Error | undefined;
  client.on('error', (error: Error) => {
    failure = error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    // connect() rejects with "Connection is closed"; the error event said why.
    const reason = failure ?? error;
    throw reason instanceof Error && reason.message === 'Command timed out'
      ? new Error(`Redis did not answer within ${timeoutMs} ms`, { cause: reason })
      : reason;
  }
  let down = false;
  const goDown = (error: Error) => {
    if (down) return;
    down = true;
    options.onDown?.(error);
  };
  client.on('close', () => {
    goDown(new Error('the connection to Redis closed'));
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    options.onUp?.();
  });
  const stopHeartbeat = keepAlive(client, goDown);
  return {
    client,
    database: client.options.db ?? 0,
    keyPrefix: options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX,
    duplicate: () => new Redis(url, settings),
    async close() {
      down = true;
      stopHeartbeat();
      await client.quit().catch(() => {
        client.disconnect();
      });
    },
  };
}

/**
 * PINGs `client` while it is ready; one unanswered within half a second means Redis is silent
 * (hung, or a network path that drops everything): `onSilent` is told, and the connection is
 * dropped so that it connects anew, as after a cut. Without this a silent Redis keeps the
 * connection "ready": commands wait out their timeout, and a subscriber hears nothing, unaware.
 * Returns a function that stops.
 */
export function keepAlive(client: Redis, onSilent: (error: Error) => void): () => void {
  return heartbeat(
    () => (client.status === 'ready' ? client.ping().catch(() => {}) : undefined),
    (error) => {
      onSilent(error);
      client.disconnect(true);
    },
    'Redis',
  );
}
