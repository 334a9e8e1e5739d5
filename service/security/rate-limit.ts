import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { addressKey } from './address-key.js';

/** How many failed attempts a key may accumulate within a fixed window. */
export interface AttemptLimit {
  readonly attempts: number;
  readonly windowSeconds: number;
}

/** The limits of {@link createFailureLimiter}. */
export interface FailureLimits {
  /** Failures against one username, from anywhere: stops a distributed guess at one account. */
  readonly perUsername: AttemptLimit;
  /** Failures from one client address (an IPv6 /64), against any username: stops spraying. */
  readonly perAddress: AttemptLimit;
}

/** 10 failures per username and 50 per address, per 15 minutes. */
export const DEFAULT_FAILURE_LIMITS: FailureLimits = {
  perUsername: { attempts: 10, windowSeconds: 15 * 60 },
  perAddress: { attempts: 50, windowSeconds: 15 * 60 },
};

/** Whether an attempt may go ahead, and if not when to come back. */
export type AttemptVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Counts failed password attempts per client address and per username, in memory.
 *
 * Call {@link FailureLimiter.check | check} before verifying a password, then exactly one of
 * `fail`, `succeed` or `release`. An allowed check already counts the attempt as a failure, so a
 * burst of parallel guesses cannot all pass before the first one is judged; `succeed` and
 * `release` take it back. Nothing here throws.
 */
export interface FailureLimiter {
  /** Refuses (429) once a limit is reached; otherwise lets the attempt go ahead, counted. */
  check(address: string, username: string): Promise<AttemptVerdict>;
  /** The password was wrong or the user unknown: the attempt stays counted. */
  fail(address: string, username: string): Promise<void>;
  /** The password was right: the attempt is uncounted and the username's failures forgotten. */
  succeed(address: string, username: string): Promise<void>;
  /** The attempt could not be judged (store unavailable): it is uncounted. */
  release(address: string, username: string): Promise<void>;
}

/**
 * A {@link FailureLimiter} over rate-limiter-flexible's in-memory counters (per process:
 * several processes each allow the full count).
 *
 * @example
 * const limiter = createFailureLimiter();
 * const verdict = await limiter.check(request.ip, username);
 * if (!verdict.allowed) reply.code(429).header('retry-after', verdict.retryAfterSeconds);
 */
export function createFailureLimiter(limits: Partial<FailureLimits> = {}): FailureLimiter {
  const { perUsername, perAddress } = { ...DEFAULT_FAILURE_LIMITS, ...limits };
  for (const limit of [perUsername, perAddress]) {
    if (!(Number.isInteger(limit.attempts) && limit.attempts >= 1 && limit.windowSeconds > 0)) {
      throw new RangeError('a failed-attempt limit needs attempts ≥ 1 and a positive window');
    }
  }
  const byUsername = new RateLimiterMemory({
    keyPrefix: 'login-username',
    points: perUsername.attempts,
    duration: perUsername.windowSeconds,
  });
  const byAddress = new RateLimiterMemory({
    keyPrefix: 'login-address',
    points: perAddress.attempts,
    duration: perAddress.windowSeconds,
  });
  // Usernames come from the request: bound the memory an oversized one can take.
  const userKey = (username: string): string => username.slice(0, 128);

  const uncount = async (limiter: RateLimiterMemory, key: string): Promise<void> => {
    // A window that expired meanwhile has nothing to give back; do not go below zero.
    const current = await limiter.get(key);
    if (current !== null && current.consumedPoints > 0) await limiter.reward(key, 1);
  };

  return {
    async check(address, username) {
      const keys = [addressKey(address), userKey(username)] as const;
      // penalty() never rejects and counts synchronously, so concurrent checks cannot both see
      // the last free attempt.
      const [fromAddress, forUser] = await Promise.all([
        byAddress.penalty(keys[0], 1),
        byUsername.penalty(keys[1], 1),
      ]);
      const over = [
        ...(fromAddress.consumedPoints > perAddress.attempts ? [fromAddress] : []),
        ...(forUser.consumedPoints > perUsername.attempts ? [forUser] : []),
      ];
      if (over.length === 0) return { allowed: true };
      await Promise.all([uncount(byAddress, keys[0]), uncount(byUsername, keys[1])]);
      return { allowed: false, retryAfterSeconds: retryAfter(over) };
    },
    fail: () => Promise.resolve(),
    async succeed(address, username) {
      await Promise.all([
        uncount(byAddress, addressKey(address)),
        byUsername.delete(userKey(username)),
      ]);
    },
    async release(address, username) {
      await Promise.all([
        uncount(byAddress, addressKey(address)),
        uncount(byUsername, userKey(username)),
      ]);
    },
  };
}

function retryAfter(results: readonly RateLimiterRes[]): number {
  const ms = Math.max(...results.map((result) => result.msBeforeNext));
  return Math.max(1, Math.ceil(ms / 1000));
}
