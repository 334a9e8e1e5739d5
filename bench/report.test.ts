import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clientSaturation,
  kernelLine,
  median,
  medianInterval,
  pool,
  quantile,
  saturationLine,
  summarise,
  table,
  type Compared,
  type Run,
} from './report.js';

const routes: readonly Compared[] = [
  { path: '/none', kind: 'baseline', description: 'no auth', target: null },
  { path: '/bearer', kind: 'single', description: 'HttpBearer', target: 0.95 },
];

/** One run: a route at `rate` req/s, taking `micros` of server CPU per request. */
function run(sequence: number, path: string, rate: number, micros = 1e6 / rate): Run {
  return {
    round: 1,
    sequence,
    path,
    requestsPerSecond: rate,
    requests: rate,
    seconds: 1,
    latencyP50: 1,
    latencyP99: 2,
    serverMicrosPerRequest: micros,
    serverCpuShare: 0.98,
    clientCpuShare: 0.8,
    otherCores: 0,
  };
}

describe('quantile and median', () => {
  it('interpolates between the nearest ranks', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(quantile([1, 2, 3, 4, 5], 0.25), 2);
    assert.equal(quantile([1, 2, 3, 4], 0.25), 1.75);
    assert.equal(quantile([7], 0.75), 7);
    assert.equal(quantile([5, 1], 0), 1);
    assert.equal(quantile([5, 1], 1), 5);
  });

  it('gives a distribution-free interval of the median from order statistics', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    // ranks 40 and 61 of 100 (1.96 × √100 / 2 = 9.8 either side of 50, rounded outwards)
    assert.deepEqual(medianInterval(hundred), [40, 61]);
    const thirty = Array.from({ length: 30 }, (_, i) => i + 1);
    assert.deepEqual(medianInterval(thirty), [9, 22]);
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    assert.deepEqual(medianInterval(ten), [1, 10]);
    assert.deepEqual(medianInterval([0.9]), [0.9, 0.9]);
  });

  it('leaves its input in its order', () => {
    const values = [3, 1, 2];
    median(values);
    medianInterval(values);
    assert.deepEqual(values, [3, 1, 2]);
  });
});

/**
 * The runs of a benchmark in the order they are timed, the baseline before every route run and
 * once more at the end: /none at 10,000 req/s and /bearer at `ratio` of that, both at the
 * machine's speed at the time (`speeds[i]` for the i-th run).
 */
function sandwiched(speeds: readonly number[], ratios: (i: number) => number): Run[] {
  return speeds.map((speed, i) =>
    i % 2 === 0 ? run(i, '/none', 10_000 * speed) : run(i, '/bearer', 10_000 * ratios(i) * speed),
  );
}

describe('summarise', () => {
  it('judges a target on the ratio to the baseline runs around each run, which a slower machine does not move', () => {
    // The machine slows to half speed halfway through; the route is 0.97× the baseline whenever
    // both run at the same speed. The ratio of medians says 0.647×; the median of the ratios to
    // the neighbouring baseline runs stays 0.97×.
    const speeds = [1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
    const [baseline, bearer] = summarise(
      routes,
      sandwiched(speeds, () => 0.97),
    );
    assert.equal(baseline!.pairedRatio, 1);
    assert.equal(baseline!.pass, null);
    assert.ok(bearer!.ratio < 0.65, `ratio of medians ${bearer!.ratio}`);
    assert.ok(Math.abs(bearer!.pairedRatio - 0.97) < 1e-9, `paired ${bearer!.pairedRatio}`);
    assert.equal(bearer!.pass, true);
  });

  it('divides by the mean of the baseline runs just before and after, or the one at an end', () => {
    const runs = [
      run(0, '/bearer', 9_000),
      run(1, '/none', 10_000),
      run(2, '/none', 12_000),
      run(3, '/bearer', 11_000),
      run(4, '/none', 10_000),
      run(5, '/bearer', 5_000),
      run(9, '/none', 90_000),
    ];
    // The runs' order, not the order of the list, decides which runs are neighbours.
    const [, bearer] = summarise(routes, runs.toReversed());
    // 9,000 / 10,000 = 0.9, 11,000 / mean(12,000, 10,000) = 1, 5,000 / mean(10,000, 90,000) = 0.1
    assert.deepEqual(
      bearer!.pairedQuartiles.map((q) => Math.round(q * 1000) / 1000),
      [0.5, 0.95],
    );
    assert.ok(Math.abs(bearer!.pairedRatio - 0.9) < 1e-9);
  });

  it('fails a route whose runs are mostly below the target', () => {
    const ratios = [0.99, 0.9, 0.92, 0.93, 0.96];
    const speeds = Array.from({ length: ratios.length * 2 + 1 }, () => 1);
    const [, bearer] = summarise(
      routes,
      sandwiched(speeds, (i) => ratios[(i - 1) / 2]!),
    );
    assert.ok(Math.abs(bearer!.pairedRatio - 0.93) < 1e-9);
    assert.deepEqual(
      bearer!.pairedQuartiles.map((q) => Math.round(q * 1000) / 1000),
      [0.92, 0.96],
    );
    assert.equal(bearer!.pass, false);
  });

  it('leaves out the pairs the load generator set the pace of, and keeps every pair apart', () => {
    const limited = (r: Run): Run => ({ ...r, clientCpuShare: 0.97 });
    const runs = [
      run(0, '/none', 10_000),
      run(1, '/bearer', 9_000), // 0.9, server-bound on both sides
      run(2, '/none', 10_000),
      limited(run(3, '/bearer', 9_900)), // the run itself was limited by autocannon
      run(4, '/none', 10_000),
      run(5, '/bearer', 9_800), // its next baseline run was limited
      limited(run(6, '/none', 10_000)),
      run(7, '/bearer', 9_700), // its previous baseline run was limited
      run(8, '/none', 10_000),
      run(9, '/bearer', 9_200), // 0.92, server-bound
      run(10, '/none', 10_000),
    ];
    const [baseline, bearer] = summarise(routes, runs);
    assert.equal(bearer!.runs, 5);
    assert.equal(bearer!.pairedRuns, 2);
    assert.ok(Math.abs(bearer!.pairedRatio - 0.91) < 1e-9, `paired ${bearer!.pairedRatio}`);
    assert.ok(Math.abs(bearer!.pairedRatioAllRuns - 0.97) < 1e-9);
    assert.equal(bearer!.pass, false);
    assert.equal(baseline!.pairedRatio, 1);
  });

  it('uses every pair when the load generator limited them all, and says none was left', () => {
    const limited = (r: Run): Run => ({ ...r, clientCpuShare: 0.99 });
    const runs = [
      run(0, '/none', 10_000),
      limited(run(1, '/bearer', 9_600)),
      run(2, '/none', 10_000),
    ];
    const [, bearer] = summarise(routes, runs);
    assert.equal(bearer!.pairedRuns, 0);
    assert.ok(Math.abs(bearer!.pairedRatio - 0.96) < 1e-9);
    assert.equal(bearer!.pass, true);
    assert.match(table(summarise(routes, runs)).split('\n')[3]!, /\| 0 of 1 \(all used\) \|/);
  });

  it('refuses to compare a route that has no baseline run', () => {
    assert.throws(
      () => summarise(routes, [run(0, '/none', 10_000), run(1, '/bearer', 9_000)].slice(1)),
      /\/bearer: no baseline run to compare with/,
    );
  });

  it('reports the CPU ratio from the server time per request', () => {
    const runs = [run(0, '/none', 10_000, 80), run(1, '/bearer', 9_000, 100)];
    const [, bearer] = summarise(routes, runs);
    assert.equal(bearer!.cpuRatio, 0.8);
    assert.equal(bearer!.medianServerMicrosPerRequest, 100);
  });
});

describe('table', () => {
  it('prints every route with its paired ratio, its interval and verdict', () => {
    const runs = [run(0, '/none', 10_000), run(1, '/bearer', 9_000)];
    const lines = table(summarise(routes, runs)).split('\n');
    assert.equal(lines.length, 4);
    assert.match(
      lines[0]!,
      /\| route +\| median req\/s \|.*\| paired ratio \| +paired 95 % CI \| +pairs \| all pairs \|/,
    );
    assert.match(lines[2]!, /^\| \/none .*\| baseline \|/);
    assert.match(
      lines[3]!,
      /^\| \/bearer .*\| +9,000 \|.*0\.900× .*0\.900–0\.900 \| +1 of 1 \| +0\.900× .*≥ 0\.95× .*FAIL/,
    );
  });
});

describe('clientSaturation', () => {
  const at = (sequence: number, path: string, clientCpuShare: number): Run => ({
    ...run(sequence, path, 1000),
    clientCpuShare,
  });

  it('counts runs where autocannon had a whole core, the baseline apart', () => {
    const runs = [
      at(1, '/none', 0.97),
      at(2, '/bearer', 0.8),
      at(3, '/none', 0.94),
      at(4, '/bearer', 0.95),
      at(5, '/none', 0.99),
    ];
    assert.deepEqual(clientSaturation(runs, '/none'), {
      baseline: 2,
      baselineRuns: 3,
      others: 1,
      otherRuns: 2,
    });
    assert.match(
      saturationLine(runs, '/none'),
      /in 2 of 3 baseline runs and 1 of 2 others: there .* left out of the paired ratios/,
    );
  });

  it('says so when the server was the bottleneck throughout', () => {
    const runs = [at(1, '/none', 0.5), at(2, '/bearer', 0.94)];
    assert.match(
      saturationLine(runs, '/none'),
      /in 0 of 1 baseline runs and 0 of 1 others: the server/,
    );
  });
});

describe('kernelLine', () => {
  const split = (sequence: number, path: string, micros: number, system: number): Run => ({
    ...run(sequence, path, 1000, micros),
    serverSystemMicrosPerRequest: system,
  });

  it("splits each route's server time a request into user and system, medians over its runs", () => {
    const runs = [
      split(0, '/none', 30, 8),
      split(1, '/bearer', 34, 9),
      split(2, '/none', 31, 8.5),
      split(3, '/bearer', 36, 12),
      split(4, '/none', 32, 10),
      split(5, '/bearer', 35, 9.5),
    ];
    // /none: user 22, 22.5, 22 → 22.0; system 8, 8.5, 10 → 8.5. /bearer: user 25, 24, 25.5 → 25.0.
    assert.equal(
      kernelLine(runs, ['/none', '/bearer']),
      'kernel    server µs a request, user + system (medians): /none 22.0 + 8.5, /bearer 25.0 + 9.5',
    );
  });

  it('says nothing for runs saved before the split was recorded', () => {
    const runs = [run(0, '/none', 1000), split(1, '/bearer', 34, 9), run(2, '/none', 1000)];
    assert.equal(kernelLine(runs, ['/none', '/bearer']), undefined);
  });
});

describe('pool', () => {
  const saved = (commit: string, runs: readonly Run[]) => ({
    commit,
    summaries: summarise(routes, runs),
    runs,
  });

  it('summarises the runs of several results as one benchmark, pairing each within its own', () => {
    // The second benchmark ran on a machine twice as fast: its runs pair with its own baseline.
    const first = saved('a', [
      run(0, '/none', 10_000),
      run(1, '/bearer', 9_400),
      run(2, '/none', 10_000),
    ]);
    const second = saved('b', [
      run(0, '/none', 20_000),
      run(1, '/bearer', 19_200),
      run(2, '/none', 20_000),
      run(3, '/bearer', 19_000),
      run(4, '/none', 20_000),
    ]);
    const { compared, runs } = pool([first, second]);
    assert.deepEqual(
      compared.map((route) => route.path),
      ['/none', '/bearer'],
    );
    assert.equal(runs.length, 8);
    const [, bearer] = summarise(compared, runs);
    // 0.94, 0.96 and 0.95: never 9,400 over a baseline of the other benchmark.
    assert.equal(bearer!.runs, 3);
    assert.ok(Math.abs(bearer!.pairedRatio - 0.95) < 1e-9, `paired ${bearer!.pairedRatio}`);
  });

  it('pools each route over the results that time it', () => {
    const three = [
      ...routes,
      { path: '/apikey', kind: 'single', description: 'APIKeyHeader', target: 0.95 },
    ];
    const bothRuns = [
      run(0, '/none', 10_000),
      run(1, '/bearer', 9_400),
      run(2, '/none', 10_000),
      run(3, '/apikey', 9_800),
      run(4, '/none', 10_000),
    ];
    const both = { commit: 'a', summaries: summarise(three, bothRuns), runs: bothRuns };
    // A run of /bearer alone (`--routes /bearer`).
    const bearerOnly = {
      commit: 'b',
      summaries: summarise(routes, [
        run(0, '/none', 20_000),
        run(1, '/bearer', 19_200),
        run(2, '/none', 20_000),
      ]),
      runs: [run(0, '/none', 20_000), run(1, '/bearer', 19_200), run(2, '/none', 20_000)],
    };
    const { compared, runs } = pool([bearerOnly, both]);
    assert.deepEqual(
      compared.map((route) => route.path),
      ['/none', '/bearer', '/apikey'],
    );
    const [, bearer, apikey] = summarise(compared, runs);
    assert.equal(bearer!.runs, 2);
    assert.ok(Math.abs(bearer!.pairedRatio - 0.95) < 1e-9, `paired ${bearer!.pairedRatio}`);
    assert.equal(apikey!.runs, 1);
    assert.ok(Math.abs(apikey!.pairedRatio - 0.98) < 1e-9, `paired ${apikey!.pairedRatio}`);
  });

  it('refuses results with another baseline, or that do not begin and end with it', () => {
    const ok = saved('a', [
      run(0, '/none', 10_000),
      run(1, '/bearer', 9_000),
      run(2, '/none', 10_000),
    ]);
    const other = {
      ...ok,
      summaries: ok.summaries.map((s) => (s.path === '/none' ? { ...s, path: '/noauth' } : s)),
    };
    assert.throws(
      () => pool([ok, other]),
      /results 2 have the baseline \/noauth, not \/none as the first/,
    );
    const cut = saved('c', [run(0, '/none', 10_000), run(1, '/bearer', 9_000)]);
    assert.throws(() => pool([ok, cut]), /results 2 do not begin and end with a run of \/none/);
    assert.throws(() => pool([]), /no results to summarise/);
  });
});
