// The reports' arithmetic on known runs: medians and their interval, ratios to the baseline runs
// around each run, the tables and targets, costs in units timed in process, the memory verdict.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  costTable,
  extraCost,
  FLAT_LIMIT_BYTES_PER_MILLION as LIMIT,
  median,
  medianInterval,
  memoryVerdict,
  summarise,
  table,
  targetTable,
  versus,
  type Run,
} from './report.js';

let sequence = 0;
function run(label: string, baseline: string, round: number, requestsPerSecond: number): Run {
  return {
    round,
    sequence: sequence++,
    label,
    baseline,
    requestsPerSecond,
    latencyP99: requestsPerSecond / 1000,
    serverMicrosPerRequest: 1e6 / requestsPerSecond,
    clientCpuShare: 0.5,
  };
}

describe('median and its interval', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
  });

  it('spans every value up to ten, and the binomial ranks beyond', () => {
    assert.deepEqual(medianInterval([5, 1, 3]), [1, 5]);
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    // n = 100: ranks 50 ± 9.8, rounded outwards, from 0: 39 and 60.
    assert.deepEqual(medianInterval(hundred), [40, 61]);
  });
});

describe('paired ratios', () => {
  sequence = 0;
  const runs = [
    run('F', 'F', 1, 1000),
    run('a', 'F', 1, 900),
    run('E', 'E', 1, 400),
    run('p', 'E', 1, 300),
    run('F', 'F', 1, 800),
    run('E', 'E', 1, 200),
  ];

  it("divides each run by the mean of its server's baseline runs around it", () => {
    const [a, p, f] = summarise(['a', 'p', 'F'], runs);
    // a: 900 / ((1000 + 800) / 2); p: 300 / ((400 + 200) / 2), the baseline of its own server.
    assert.deepEqual([a?.label, a?.ratio, p?.label, p?.ratio], ['a', 1, 'p', 1]);
    // F: 1000 and 800 requests/s, each over the other: 1.25 and 0.8.
    assert.deepEqual([f?.label, f?.requestsPerSecond, f?.ratio], ['F', 900, (1.25 + 0.8) / 2]);
    assert.deepEqual(f?.interval, [0.8, 1.25]);
    assert.throws(() => summarise(['a'], [runs[1]!]), /no baseline run/);
    assert.throws(() => summarise(['nope'], runs), /nope: no runs/);
  });
});

describe('tables', () => {
  it('prints req/s, ratio, interval, p99, server µs and client CPU of each route', () => {
    sequence = 0;
    const runs = [run('F', 'F', 1, 20_000), run('a', 'F', 1, 10_000), run('F', 'F', 1, 20_000)];
    const row = table(summarise(['a'], runs)).split('\n')[2];
    assert.equal(
      row,
      '| a     | 10,000 |     0.50× | 0.50–0.50 |   10.0 |         100.0 |         50 % |',
    );
  });

  it('judges each target on the ratios of the two routes round by round', () => {
    sequence = 0;
    // Rounds: 1000/500, 2000/1000, 3000/2500.
    const runs = [1, 2, 3].flatMap((round) => [
      run('v', 'F', round, 1000 * round),
      run('p', 'F', round, 500 * round + (round === 3 ? 1000 : 0)),
    ]);
    const [v, p] = [{ label: 'v' }, { label: 'p' }];
    const text = targetTable(runs, [
      { first: v, second: p, times: 2 },
      { first: p, second: v, times: 1 },
      { first: v, second: p },
    ]);
    assert.match(text, /\| v ≥ 2× p \| +2\.00× \| 1\.20–2\.00 \| yes \|/);
    assert.match(text, /\| p ≥ 1× v \| +0\.50× \| 0\.50–0\.83 \| +NO \|/);
    // No target: the ratio, judged by no one.
    assert.match(text, /\| v ÷ p +\| +2\.00× \| 1\.20–2\.00 \| +— \|/);
  });

  it('judges a paired target on each route over its own baseline, round by round', () => {
    sequence = 0;
    // x: 900 over A's 1000, 0.9 each round; y: 45 × round over B's 100, 0.45 × round.
    const runs = [1, 2, 3].flatMap((round) => [
      run('A', 'A', round, 1000),
      run('x', 'A', round, 900),
      run('B', 'B', round, 100),
      run('y', 'B', round, 45 * round),
    ]);
    runs.push(run('A', 'A', 3, 1000), run('B', 'B', 3, 100));
    const [x, y] = [{ label: 'x' }, { label: 'y' }];
    // 0.45 × round / 0.9: 0.5, 1 and 1.5; the requests/s alone: 45 × round / 900.
    const paired = versus(runs, { first: y, second: x, paired: true });
    assert.deepEqual(paired, { ratio: 1, interval: [0.5, 1.5] });
    assert.deepEqual(versus(runs, { first: y, second: x }).interval, [0.05, 0.15]);
  });
});

describe('cost in units', () => {
  /** A run of `label` in `round` that cost the server `micros` µs a request. */
  const costing = (label: string, round: number, micros: number): Run => ({
    ...run(label, 'F', round, 1000),
    serverMicrosPerRequest: micros,
  });
  // Rounds of d and b, and the unit timed in each: d − b is 130, 170 and 120 µs; 2, 2.5 and 2 units.
  const runs = [
    [250, 120],
    [300, 130],
    [260, 140],
  ].flatMap(([d, b], i) => [costing('d', i + 1, d!), costing('b', i + 1, b!)]);
  const units = [65, 68, 60].map((micros, i) => ({ round: i + 1, micros }));
  const [d, b] = [{ label: 'd' }, { label: 'b' }];

  it("takes a route's server µs over another's round by round, and each round's in its unit", () => {
    assert.deepEqual(extraCost(runs, { first: d, second: b }, units), {
      micros: 130,
      microsInterval: [120, 170],
      ratio: 2,
      interval: [2, 2.5],
      unit: 65,
      unitInterval: [60, 68],
    });
  });

  it('leaves out a round without either route or the unit, and needs one', () => {
    const fewer = extraCost(runs.slice(2), { first: d, second: b }, units.slice(0, 2));
    assert.deepEqual([fewer.micros, fewer.ratio, fewer.unit], [170, 2.5, 66.5]);
    assert.throws(() => extraCost(runs.slice(2), { first: d, second: b }, units.slice(0, 1)), {
      message: 'd − b: no round with both and the unit',
    });
  });

  it('judges each target against its number of units, and prints the unit last', () => {
    const text = costTable(
      runs,
      [
        { first: d, second: b, times: 2.5 },
        { first: d, second: b, times: 1.5 },
      ],
      {
        label: 'one check',
        timings: units,
      },
    );
    const rows = text.split('\n');
    assert.match(
      rows[2]!,
      /^\| d − b ≤ 2\.5× one check +\| +130\.0 \| 120\.0–170\.0 \| 2\.00× \| 2\.00–2\.50 \| yes \|$/,
    );
    assert.match(rows[3]!, /^\| d − b ≤ 1\.5× one check .* \| {2}NO \|$/);
    assert.match(
      rows[4]!,
      /^\| one check, in this process +\| +65\.0 \| +60\.0–68\.0 \| 1\.00× \| +\| +\|$/,
    );
  });
});

describe('memoryVerdict', () => {
  const MiB = 2 ** 20;
  /** Eleven samples a hundred thousand requests apart: a million requests. */
  const points = (heap: (requests: number) => number) =>
    Array.from({ length: 11 }, (_, i) => {
      const requests = i * 100_000;
      return { requests, heapUsed: heap(requests) };
    });

  it('calls a heap that only wobbles, or grows by less than the limit, flat', () => {
    assert.equal(memoryVerdict(points((r) => 20 * MiB + ((r / 1e5) % 2) * 300_000)).flat, true);
    assert.equal(memoryVerdict(points((r) => 20 * MiB + (r / 1e6) * (LIMIT - 1))).flat, true);
  });

  it('catches a leak of 100 bytes a request, and a heap that peaks or jumps at the end', () => {
    assert.equal(memoryVerdict(points((r) => 20 * MiB + 100 * r)).flat, false);
    assert.equal(memoryVerdict(points((r) => (r === 500_000 ? 30 : 20) * MiB)).flat, false);
    assert.equal(memoryVerdict(points((r) => (r === 1_000_000 ? 30 : 20) * MiB)).flat, false);
  });

  it('allows no less than the limit to a short run', () => {
    // 1 MiB over a thousand requests: a hundredth of the limit if it were scaled down.
    const short = [0, 1000].map((requests) => ({ requests, heapUsed: MiB + requests * 1024 }));
    assert.equal(memoryVerdict(short).flat, true);
  });
});
