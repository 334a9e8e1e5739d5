// The speed tricks of the library too small for an HTTP route to show, each timed in process
// against its plain version: a call costs a few hundred nanoseconds at most, a request tens of
// microseconds. Both versions are timed in every round, in alternating order; the table gives the
// plain version's time over the trick's, its median over the rounds and that median's interval.
import { isDeepStrictEqual } from 'node:util';
import { utf8 } from '../src/core/utf8.js';
import { markdownTable, median, medianInterval } from './report.js';

/** A trick and its plain version, called over the same inputs; both must answer alike. */
export interface Trick {
  readonly label: string;
  readonly inputs: readonly string[];
  readonly trick: (input: string) => unknown;
  readonly plain: (input: string) => unknown;
}

const encoder = new TextEncoder();
// What CSRF tokens sign (`vouch-csrf.<nonce>.<session id>`) and what a session store hashes.
const csrfMessage = `vouch-csrf.${'n'.repeat(43)}.${'s'.repeat(43)}`;

export const tricks: readonly Trick[] = [
  {
    label: 'utf8(): ASCII copied in plain code',
    inputs: [csrfMessage, 's'.repeat(43)],
    trick: utf8,
    plain: (text) => encoder.encode(text),
  },
];

/** Throws unless both versions of every trick answer alike on every input. */
export function checkTricks(list: readonly Trick[] = tricks): void {
  for (const { label, inputs, trick, plain } of list) {
    for (const input of inputs) {
      if (!isDeepStrictEqual(trick(input), plain(input))) {
        throw new Error(`${label}: the two versions answer ${input} differently`);
      }
    }
  }
}

let sink = 0;
/** Nanoseconds a call, over `calls` calls cycling through the inputs. */
function time(run: (input: string) => unknown, inputs: readonly string[], calls: number): number {
  const start = performance.now();
  for (let i = 0; i < calls; i++) if (run(inputs[i % inputs.length]!) !== undefined) sink++;
  return ((performance.now() - start) * 1e6) / calls;
}

/** Times every trick and its plain version in `rounds` rounds of `calls` calls each. */
export function timeTricks(rounds: number, calls = 1_000_000) {
  return tricks.map(({ label, inputs, trick, plain }) => {
    time(trick, inputs, calls);
    time(plain, inputs, calls);
    const runs: { trick: number; plain: number }[] = [];
    for (let round = 1; round <= rounds; round++) {
      const first = round % 2 === 0 ? plain : trick;
      const a = time(first, inputs, calls);
      const b = time(first === trick ? plain : trick, inputs, calls);
      runs.push(first === trick ? { trick: a, plain: b } : { trick: b, plain: a });
    }
    if (sink < 0) throw new Error('unreachable: keeps the calls from being optimised away');
    const ratios = runs.map((run) => run.plain / run.trick);
    return {
      label,
      trickNanos: median(runs.map((run) => run.trick)),
      plainNanos: median(runs.map((run) => run.plain)),
      ratio: median(ratios),
      interval: medianInterval(ratios),
      runs,
    };
  });
}

/** The timings as a Markdown table; a trick wins when its interval lies wholly above 1×. */
export function trickTable(timed: ReturnType<typeof timeTricks>): string {
  return markdownTable([
    ['trick', 'ns a call', 'plain ns', 'plain ÷ trick', '95 % CI', 'wins'],
    ...timed.map(({ label, trickNanos, plainNanos, ratio, interval: [low, high] }) => [
      label,
      trickNanos.toFixed(1),
      plainNanos.toFixed(1),
      `${ratio.toFixed(2)}×`,
      `${low.toFixed(2)}–${high.toFixed(2)}`,
      low > 1 ? 'yes' : 'NO',
    ]),
  ]);
}
