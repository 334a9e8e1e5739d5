import { wholeNumber } from '../core/configuration-checks.js';
import { StoreUnavailableError } from '../core/errors.js';
import type { ReplayStore } from './replay-store.js';
import { timeLeft } from './time-left.js';

/** Options of {@link memoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Proofs remembered at once at most (default 1000000); beyond it, 503 until some expire. A
   * proof is remembered for DPoPBearer's `maxAge` and tolerance (65 s by default), so the default
   * keeps up with about 15,000 proofs a second, in about 130 MB when full.
   */
  readonly maxEntries?: number;
}

/**
 * A {@link ReplayStore} in this process's memory: for one instance, or tests. A proof it still
 * remembers is never forgotten to make room (that would accept its replay): when `maxEntries`
 * live proofs fill it, a new one is answered 503 until the oldest expire.
 */
export function memoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStore {
  const maxEntries = wholeNumber(options.maxEntries, 1_000_000, 'memoryReplayStore maxEntries', {
    positive: true,
  });
  // Insertion order is nearly expiry order (every proof lives one window), so sweeping stops at
  // the first entry still alive.
  const seen = new Map<string, number>();
  const sweep = (now: number): void => {
    for (const [key, expiresAt] of seen) {
      if (expiresAt > now) return;
      seen.delete(key);
    }
  };
  return {
    claim(key, expiresAt) {
      const now = Date.now();
      if (timeLeft(expiresAt, now) <= 0) return false;
      const known = seen.get(key);
      if (known !== undefined && known > now) return false;
      sweep(now);
      if (seen.size >= maxEntries) {
        throw new StoreUnavailableError('the DPoP replay memory is full of live proofs');
      }
      seen.delete(key);
      seen.set(key, expiresAt);
      return true;
    },
  };
}
