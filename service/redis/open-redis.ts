import { Redis } from 'ioredis';

/** What the service's keys and channel begin with unless `REDIS_KEY_PREFIX` says otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'vouch:';

/** Options of {@link openRedis}. */
export interface OpenRedisOptions {
  /** What every key and channel of the service begins with (default {@link DEFAULT_REDIS_KEY_PREFIX}). */
  readonly keyPrefix?: string;
  /** How long connecting or a command may take, in milliseconds (default 1000). */
  readonly timeoutMs?: number;
  /** Called once when Redis stops answering (no secrets in the error). */
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
  /** A new connection with the same settings, not yet connected (for SUBSCRIBE). */
  duplicate(): Redis;
  /** Closes the command connection. */
  close(): Promise<void>;
}

/**
 * Connects to the Redis server a `redis://` (or `rediss://`) URL names and proves it answers;
 * rejects, having given up, when it cannot within the timeout. Afterwards the connection
 * reconnects by itself whenever it is cut, backing off up to two seconds between attempts, and
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
    throw failure ?? error;
  }
  let down = false;
  client.on('close', () => {
    if (down) return;
    down = true;
    options.onDown?.(new Error('the connection to Redis closed'));
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    options.onUp?.();
  });
  return {
    client,
    database: client.options.db ?? 0,
    keyPrefix: options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX,
    duplicate: () => new Redis(url, settings),
    async close() {
      down = true;
      await client.quit().catch(() => {
        client.disconnect();
      });
    },
  };
}
