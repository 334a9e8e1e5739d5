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
   * is refused, and one still waiting when its turn can no longer come in time is refused then.
   * One that can start at once is always taken.
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
 * within `maxAnswerMs`; any other is refused at once. A check whose turn has not come by the time
 * it would have to start to end within `maxAnswerMs` is refused then, so that no wait outlasts
 * that bound when checks slow down after it was taken.
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
  // Waiting checks refused at their deadline, whose turns p-limit has yet to pass over.
  let abandoned = 0;
  const ahead = () => limit.activeCount + limit.pendingCount - abandoned;
  const busy = () => {
    const count = ahead();
    // A check that can start at once is never refused, however slow checks are here.
    if (count < concurrency) return false;
    // The checks that must end before this one starts, then this one, `concurrency` at a time.
    const answerMs = (Math.floor(count / concurrency) + 1) * estimateMs();
    return count >= capacity || answerMs > maxAnswerMs;
  };
  return {
    busy,
    run<T>(check: () => Promise<T>): Promise<T> {
      if (busy()) return Promise.reject(new PasswordChecksBusyError());
      // How long it may wait for its turn and still end within maxAnswerMs at the recent pace.
      const patienceMs = maxAnswerMs - estimateMs();
      if (ahead() < concurrency || !Number.isFinite(patienceMs)) return limit(() => timed(check));
      return new Promise<T>((resolve, reject) => {
        let refused = false;
        const deadline = setTimeout(() => {
          refused = true;
          abandoned++;
          reject(new PasswordChecksBusyError());
        }, patienceMs);
        void limit(async () => {
          if (refused) {
            abandoned--;
            return;
          }
          clearTimeout(deadline);
          await timed(check).then(resolve, reject);
        });
      });
    },
  };
}
