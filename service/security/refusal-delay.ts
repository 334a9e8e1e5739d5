import { setTimeout as sleep } from 'node:timers/promises';

/** Options of {@link refusalDelay}. */
export interface RefusalDelayOptions {
  /** The soonest a refusal is answered, counted from its request (default 1000 ms). */
  readonly ms?: number;
  /** Refusals held at once at most (default 1000); past that, one is answered at once. */
  readonly max?: number;
}

/** Holds refusals back until their time. */
export interface RefusalDelay {
  /** Resolves `ms` after `since` (a `performance.now()` reading), at once when `max` are held. */
  until(since: number): Promise<void>;
  /** How many refusals are held now. */
  held(): number;
}

/**
 * Answers a refused sign-in (429, 503) no sooner than a second after its request, as
 * `Retry-After: 1` asks the client to wait anyway. A client waits for each answer before it sends
 * its next request on a connection, so a flood that ignores `Retry-After` gets one answer a second
 * per connection instead of as many as the CPU can give. Answered at once, the flood's connections
 * each cost a request on every turn of the event loop, and Node accepts one new connection a turn:
 * other clients' new connections then wait seconds. Holding costs a timer per refusal; a flood that
 * pipelines past `max` held refusals is answered at once.
 *
 * @example await delay.until(arrived); throw new PasswordChecksBusyError();
 */
export function refusalDelay(options: RefusalDelayOptions = {}): RefusalDelay {
  const ms = options.ms ?? 1000;
  const max = options.max ?? 1000;
  let held = 0;
  return {
    async until(since) {
      const left = () => since + ms - performance.now();
      if (left() <= 0 || held >= max) return;
      held++;
      try {
        // A timer counts from the event loop's last reading of the clock, so it may fire a little
        // early: wait again for what is left.
        while (left() > 0) await sleep(Math.ceil(left()));
      } finally {
        held--;
      }
    },
    held: () => held,
  };
}
