import { PasswordChecksBusyError } from '../errors.js';
import pLimit from 'p-limit';

/** Options of {@link hashGate}. */
export interface HashGateOptions {
  /** Password checks run at once (default 1: each takes 64 MiB and a core for 0.1–0.7 s). */
  readonly concurrency?: number;
  /** Checks waiting their turn at most (default 8); one more is refused at once. */
  readonly queue?: number;
  /**
   * The longest a check that must wait may be expected to take, its wait and itself (default
   * 1500 ms), judged from how long recent checks took on this machine; one expected to take longer
   * is refused. One that can start at once is always taken.
   */
  readonly maxAnswerMs?: number;
}

/** Runs password checks a few at a time. */
export interface HashGate {
  /** Whether a check would be refused now: cheap, to refuse before any other work. */
  busy(): boolean;
  /** Runs `check` in its turn; rejects with {@link PasswordChecksBusyError} when busy. */
  run<T>(check: () => Promise<T>): Promise<T>;
}

/**
 * Bounds the scrypt work a flood of sign-ins can pile up: each check is expensive by design, so
 * unbounded they exhaust memory and keep the CPU busy long after the clients have left. A check is
 * taken only when the queue has room and, at the pace of the recent checks, it would be answered
 * within `maxAnswerMs`; any other is answered 503 at once.
 *
 * @example const user = await gate.run(() => checkLogin(store, username, password));
 */
export function hashGate(options: HashGateOptions = {}): HashGate {
  const concurrency = options.concurrency ?? 1;
  const capacity = concurrency + (options.queue ?? 8);
  const maxAnswerMs = options.maxAnswerMs ?? 1500;
  const limit = pLimit(concurrency);
  // How long a check takes here, judged on the slowest of the last few: a machine under load
  // slows them at once, and an estimate that lags behind would let too many wait. A second until
  // the first checks have been timed.
  const recent: number[] = [1000];
  const estimateMs = () => Math.max(...recent);
  const timed = async <T>(check: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await check();
    } finally {
      recent.push(performance.now() - started);
      if (recent.length > 5) recent.shift();
    }
  };
  const busy = () => {
    const ahead = limit.activeCount + limit.pendingCount;
    // A check that can start at once is never refused, however slow checks are here.
    if (ahead < concurrency) return false;
    // The checks that must end before this one starts, then this one, `concurrency` at a time.
    const answerMs = (Math.floor(ahead / concurrency) + 1) * estimateMs();
    return ahead >= capacity || answerMs > maxAnswerMs;
  };
  return {
    busy,
    run(check) {
      if (busy()) return Promise.reject(new PasswordChecksBusyError());
      return limit(() => timed(check));
    },
  };
}
