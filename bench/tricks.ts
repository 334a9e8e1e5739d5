// The library's speed tricks that no HTTP route can show, each timed in process against its plain
// version: a call costs tens of nanoseconds, a request tens of microseconds. Both versions are
// timed in every round, in alternating order; the table gives the plain version's time over the
// trick's, its median over the rounds and the interval of that median.
import { isDeepStrictEqual } from 'node:util';
import { timingSafeMatcher } from '../src/core/timing-safe-matcher.js';
import { utf8 } from '../src/core/utf8.js';
import { TOKEN } from './apps.js';
import { markdownTable, median, medianInterval } from './report.js';

/** A trick and its plain version, called over the same inputs; both must answer alike. */
export interface Trick {
  readonly label: string;
  readonly inputs: readonly string[];
  readonly trick: (input: string) => unknown;
  readonly plain: (input: string) => unknown;
}

/** `timingSafeMatcher`'s comparison, one code unit a turn, over the same prepared code units. */
function plainMatcher(secret: string): (presented: string) => boolean {
  let size = 1;
  while (size < secret.length) size *= 2;
  const units = new Uint16Array(size);
  for (let i = 0; i < secret.length; i++) units[i] = secret.charCodeAt(i);
  const mask = size - 1;
  return (presented) => {
    let accumulated = presented.length ^ secret.length;
    for (let i = 0; i < presented.length; i++) {
      accumulated |= presented.charCodeAt(i) ^ (units[i & mask] as number);
    }
    return accumulated === 0;
  };
}

const encoder = new TextEncoder();
const spoilt = `${TOKEN.slice(0, -1)}!`;
// What CSRF tokens sign (`vouch-csrf.<nonce>.<session id>`) and what a session store hashes.
const csrfMessage = `vouch-csrf.${'n'.repeat(43)}.${'s'.repeat(43)}`;

export const tricks: readonly Trick[] = [
  {
    label: 'timingSafeMatcher: two code units a turn',
    inputs: [TOKEN, spoilt, TOKEN.slice(1)],
    trick: timingSafeMatcher(TOKEN),
    plain: plainMatcher(TOKEN),
  },
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
export function timeTricks(rounds: number, calls = 1_000_000, list: readonly Trick[] = tricks) {
  checkTricks(list);
  return list.map(({ label, inputs, trick, plain }) => {
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
