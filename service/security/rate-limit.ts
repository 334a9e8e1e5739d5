import type { Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RedisConnection } from '../redis/open-redis.js';
import { addressKey } from './address-key.js';

/** How many failed attempts a key may accumulate within a fixed window. */
export interface AttemptLimit {
  readonly attempts: number;
  readonly windowSeconds: number;
}

/**
 * The limits of {@link createFailureLimiter}, after OWASP's advice against lock-out as a denial of
 * service: an attacker meets the tight limit on one username from one address long before the
 * owner, elsewhere, meets anything; the ceiling on a username alone is high, and a device the
 * owner signed in from (a valid device cookie) never meets it.
 */
export interface FailureLimits {
  /** Failures for one username from one client address (an IPv6 /64): the tight limit. */
  readonly perUsernameAndAddress: AttemptLimit;
  /** Failures from one client address, whatever the username: stops spraying. */
  readonly perAddress: AttemptLimit;
  /** Failures for one username from anywhere: a high ceiling against distributed guessing. */
  readonly perUsername: AttemptLimit;
  /** Failures from one trusted device, instead of all the others: its only limit. */
  readonly perDevice: AttemptLimit;
}

const FIFTEEN_MINUTES = 15 * 60;

/** Per 15 minutes: 5 failures per username and address, 50 per address, 100 per username, 10 per device. */
export const DEFAULT_FAILURE_LIMITS: FailureLimits = {
  perUsernameAndAddress: { attempts: 5, windowSeconds: FIFTEEN_MINUTES },
  perAddress: { attempts: 50, windowSeconds: FIFTEEN_MINUTES },
  perUsername: { attempts: 100, windowSeconds: FIFTEEN_MINUTES },
  perDevice: { attempts: 10, windowSeconds: FIFTEEN_MINUTES },
};

/** A sign-in attempt: from where, as whom, and from which trusted device if any. */
export interface Attempt {
  readonly address: string;
  readonly username: string;
  /** The id of a valid device cookie for this username (see `deviceCookies`). */
  readonly device?: string | undefined;
}

/** Whether an attempt may go ahead, and if not when to come back. */
export type AttemptVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Counts failed password attempts: per username and address, per address and per username, or,
 * from a trusted device, per device alone.
 *
 * Call {@link FailureLimiter.check | check} before verifying a password, then exactly one of
 * `fail`, `succeed` or `release`. An allowed check already counts the attempt as a failure, so a
 * burst of parallel guesses cannot all pass before the first one is judged; `succeed` and
 * `release` take it back. Nothing here throws.
 */
export interface FailureLimiter {
  /** Refuses (429) once a limit is reached; otherwise lets the attempt go ahead, counted. */
  check(attempt: Attempt): Promise<AttemptVerdict>;
  /** The password was wrong or the user unknown: the attempt stays counted. */
  fail(attempt: Attempt): Promise<void>;
  /**
   * The password was right: the attempt is uncounted, and the failures of this username from
   * this address (or of this device) are forgotten.
   */
  succeed(attempt: Attempt): Promise<void>;
  /** The attempt could not be judged (store unavailable): it is uncounted. */
  release(attempt: Attempt): Promise<void>;
  /**
   * For a password verified before and remembered, in place of the other four: the verdict
   * `check` would give, without counting the attempt (it cannot be a guess); when allowed, what
   * `succeed` forgets is forgotten. Refused while a limit holds, a right password answers what a
   * wrong one does, so a limit cannot be used to tell them apart. Answered at once, without a
   * promise, when the counters are in this process and none of the attempt's can have reached
   * its limit.
   */
  recheck(attempt: Attempt): AttemptVerdict | Promise<AttemptVerdict>;
}

/** One kind of counter: its key prefix, how many points it holds, for how many seconds. */
export interface CounterLimit {
  readonly keyPrefix: string;
  readonly points: number;
  readonly duration: number;
}

/**
 * Where counters live: rate-limiter-flexible's limiter for a limit. `inProcess` when only this
 * process counts in them, so that what it counted is all there is.
 */
export type CounterStore = ((limit: CounterLimit) => RateLimiterAbstract) & {
  readonly inProcess?: boolean;
};

/** Counters in this process's memory: several instances each allow the full count. */
export const countInMemory: CounterStore = Object.assign(
  (limit: CounterLimit) => new RateLimiterMemory(limit),
  { inProcess: true },
);

/**
 * Counters in Redis, shared by every instance, under the connection's key prefix
 * (`vouch:login-address:…` by default). While Redis cannot answer (down, silent, or slower than
 * the connection's command timeout) each instance counts in its own memory instead.
 */
export function countInRedis(redis: Pick<RedisConnection, 'client' | 'keyPrefix'>): CounterStore {
  return (limit) =>
    new RateLimiterRedis({
      ...limit,
      keyPrefix: `${redis.keyPrefix}${limit.keyPrefix}`,
      storeClient: redis.client,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(limit),
    });
}

/**
 * Counters in PostgreSQL's `login_failures` table (migration 2), shared by every instance. While
 * the database cannot answer each instance counts in its own memory instead.
 */
export function countInPostgres(pool: Pool): CounterStore {
  return (limit) =>
    new RateLimiterPostgres({
      ...limit,
      storeClient: pool,
      storeType: 'pool',
      tableName: 'login_failures',
      tableCreated: true,
      insuranceLimiter: new RateLimiterMemory(limit),
    });
}

/**
 * A {@link FailureLimiter} over rate-limiter-flexible's counters, in this process's memory unless
 * another {@link CounterStore} is given.
 *
 * @example
 * const limiter = createFailureLimiter();
 * const verdict = await limiter.check(request.ip, username);
 * if (!verdict.allowed) reply.code(429).header('retry-after', verdict.retryAfterSeconds);
 */
export function createFailureLimiter(
  limits: Partial<FailureLimits> = {},
  counters: CounterStore = countInMemory,
): FailureLimiter {
  const chosen = { ...DEFAULT_FAILURE_LIMITS, ...limits };
  for (const limit of Object.values(chosen)) {
    if (!(Number.isInteger(limit.attempts) && limit.attempts >= 1 && limit.windowSeconds > 0)) {
      throw new RangeError('a failed-attempt limit needs attempts ≥ 1 and a positive window');
    }
  }
  // With counters in this process, each knows how many failures its keys may hold, so that a
  // recheck below every limit is answered at once.
  const inProcess = counters.inProcess === true;
  const counter = (keyPrefix: string, limit: AttemptLimit): Counter => ({
    limit,
    store: counters({ keyPrefix, points: limit.attempts, duration: limit.windowSeconds }),
    windows: inProcess ? failureWindows(limit.windowSeconds) : undefined,
  });
  const pair = counter('login-username-address', chosen.perUsernameAndAddress);
  const address = counter('login-address', chosen.perAddress);
  const username = counter('login-username', chosen.perUsername);
  const device = counter('login-device', chosen.perDevice);
  // Usernames come from the request: bound the memory an oversized one can take.
  const userKey = (name: string): string => name.slice(0, 128);

  /** The counters an attempt counts against, each with its key, and whether success forgets it. */
  const countsOf = (attempt: Attempt): Count[] => {
    if (attempt.device !== undefined)
      return [{ counter: device, key: attempt.device, forget: true }];
    const from = addressKey(attempt.address);
    const as = userKey(attempt.username);
    return [
      { counter: pair, key: `${from} ${as}`, forget: true },
      { counter: address, key: from, forget: false },
      { counter: username, key: as, forget: false },
    ];
  };

  const uncount = async ({ store, windows }: Counter, key: string): Promise<void> => {
    // A window that expired meanwhile has nothing to give back; do not go below zero.
    const current = await store.get(key);
    if (current === null || current.consumedPoints <= 0) return;
    windows?.uncounted(key);
    await store.reward(key, 1);
  };

  return {
    async check(attempt) {
      const counts = countsOf(attempt);
      // penalty() counts atomically (in memory, in one Redis script, in one PostgreSQL upsert), so
      // concurrent checks, on any instance, cannot both see the last free attempt.
      const checked = await Promise.all(
        counts.map(async ({ counter, key }) => {
          counter.windows?.counted(key);
          return { counter, result: await counter.store.penalty(key, 1) };
        }),
      );
      const over = checked
        .filter(({ counter, result }) => result.consumedPoints > counter.limit.attempts)
        .map(({ result }) => result);
      if (over.length === 0) return { allowed: true };
      await Promise.all(counts.map(({ counter, key }) => uncount(counter, key)));
      return { allowed: false, retryAfterSeconds: retryAfter(over) };
    },
    fail: () => Promise.resolve(),
    async succeed(attempt) {
      await Promise.all(
        countsOf(attempt).map((count) =>
          count.forget ? forget(count) : uncount(count.counter, count.key),
        ),
      );
    },
    async release(attempt) {
      await Promise.all(countsOf(attempt).map(({ counter, key }) => uncount(counter, key)));
    },
    recheck(attempt) {
      const counts = countsOf(attempt);
      const forgotten: Count[] = [];
      for (const count of counts) {
        // Counters shared with other processes are always read.
        const failures = count.counter.windows?.bound(count.key) ?? Infinity;
        if (failures >= count.counter.limit.attempts) return recount(counts);
        if (count.forget && failures > 0) forgotten.push(count);
      }
      // Below every limit: allowed at once. What a success forgets, it forgets now (in memory).
      for (const count of forgotten) forget(count).catch(() => undefined);
      return { allowed: true };
    },
  };

  /** Deletes a counter's key: the failures a success forgets. */
  async function forget({ counter, key }: Count): Promise<void> {
    counter.windows?.forgotten(key);
    await counter.store.delete(key);
  }

  /** {@link FailureLimiter.recheck}, from the counters themselves. */
  async function recount(attemptCounts: readonly Count[]): Promise<AttemptVerdict> {
    const counts = await Promise.all(
      attemptCounts.map(async (count) => ({
        count,
        consumed: (await count.counter.store.get(count.key)) ?? undefined,
      })),
    );
    // What check() refuses: one more failure would pass the limit.
    const over = counts.flatMap(({ count, consumed }) =>
      consumed !== undefined && consumed.consumedPoints >= count.counter.limit.attempts
        ? [consumed]
        : [],
    );
    if (over.length > 0) return { allowed: false, retryAfterSeconds: retryAfter(over) };
    await Promise.all(
      counts
        .filter(({ count, consumed }) => count.forget && (consumed?.consumedPoints ?? 0) > 0)
        .map(({ count }) => forget(count)),
    );
    return { allowed: true };
  }
}

/** One limit: its counters, and, when they are in this process, what they may hold. */
interface Counter {
  readonly limit: AttemptLimit;
  readonly store: RateLimiterAbstract;
  readonly windows: FailureWindows | undefined;
}

/** A counter an attempt counts against, under its key, and whether a success forgets it. */
interface Count {
  readonly counter: Counter;
  readonly key: string;
  readonly forget: boolean;
}

type FailureWindows = ReturnType<typeof failureWindows>;

/**
 * How many failures each key of one in-process counter may hold: at most those counted since its
 * window last began, less those it gave back, none once that window has passed.
 * Swept of passed windows as it grows, so it holds no more keys than the counter itself.
 */
function failureWindows(windowSeconds: number) {
  const counted = new Map<string, { failures: number; until: number }>();
  let sweepAt = 1024;
  return {
    counted(key: string): void {
      const now = Date.now();
      const known = counted.get(key);
      const failures = known !== undefined && known.until > now ? known.failures + 1 : 1;
      counted.set(key, { failures, until: now + windowSeconds * 1000 });
      if (counted.size < sweepAt) return;
      for (const [name, { until }] of counted) if (until <= now) counted.delete(name);
      sweepAt = Math.max(1024, 2 * counted.size);
    },
    /** An attempt the counter gave back: one fewer. */
    uncounted(key: string): void {
      const known = counted.get(key);
      if (known !== undefined && known.failures > 0) known.failures -= 1;
    },
    forgotten(key: string): void {
      counted.delete(key);
    },
    bound(key: string): number {
      const known = counted.get(key);
      if (known === undefined) return 0;
      if (known.until > Date.now()) return known.failures;
      counted.delete(key);
      return 0;
    },
  };
}

function retryAfter(results: readonly RateLimiterRes[]): number {
  const ms = Math.max(...results.map((result) => result.msBeforeNext));
  return Math.max(1, Math.ceil(ms / 1000));
}
