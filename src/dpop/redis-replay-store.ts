import { wholeNumber } from '../core/configuration-checks.js';
import type { ReplayStore } from './replay-store.js';
import { storeAnswer } from './store-answer.js';
import { timeLeft } from './time-left.js';

/**
 * What {@link redisReplayStore} needs of a Redis client: `SET key value PX ms NX`, answering
 * `'OK'` when it set the key and `null` when the key existed. ioredis's `Redis` and `Cluster`
 * are one as they are; node-redis (v4 and later) through one line:
 *
 * @example
 * const client = { set: (key, value, _px, ms) => redis.set(key, value, { PX: ms, NX: true }) };
 */
export interface RedisReplayClient {
  set(
    key: string,
    value: string,
    expiryMode: 'PX',
    milliseconds: number,
    condition: 'NX',
  ): Promise<string | null>;
}

/** Options of {@link redisReplayStore}. */
export interface RedisReplayStoreOptions {
  /**
   * What every key of the store begins with (default `vouch:dpop:`), after the client's own
   * `keyPrefix` if it has one.
   */
  readonly prefix?: string;
  /**
   * How long a claim waits for Redis's answer before answering `StoreUnavailableError` (503), in
   * milliseconds (default 2000): a client that queues commands while it reconnects would
   * otherwise hold the request as long as it retries.
   */
  readonly timeoutMs?: number;
}

/**
 * A {@link ReplayStore} in Redis: one `SET <prefix><key> 1 PX <ms> NX` per claim, atomic on the
 * server, so every instance sharing the Redis sees each proof once. Redis forgets the key when
 * the proof's window ends. An error, a connection down, or no answer within `timeoutMs` is a
 * `StoreUnavailableError` (503), never a fresh proof. An `expiresAt` already past is `false`
 * without a round trip (Redis cannot keep a key for no time).
 *
 * @example const replay = redisReplayStore(new Redis(process.env.REDIS_URL));
 */
export function redisReplayStore(
  redis: RedisReplayClient,
  options: RedisReplayStoreOptions = {},
): ReplayStore {
  const prefix = options.prefix ?? 'vouch:dpop:';
  const timeoutMs = wholeNumber(options.timeoutMs, 2000, 'redisReplayStore timeoutMs', {
    unit: 'milliseconds',
    positive: true,
  });
  return {
    async claim(key, expiresAt) {
      const milliseconds = timeLeft(expiresAt, Date.now());
      if (milliseconds <= 0) return false;
      const reply = await storeAnswer(
        () => redis.set(prefix + key, '1', 'PX', milliseconds, 'NX'),
        timeoutMs,
        'Redis did not record the DPoP proof',
      );
      return reply === 'OK';
    },
  };
}
