import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median, quantile, summarise, table, type Compared, type Run } from './report.js';

const routes: readonly Compared[] = [
  { path: '/none', kind: 'baseline', description: 'no auth', target: null },
  { path: '/bearer', kind: 'single', description: 'HttpBearer', target: 0.95 },
];

/** One run: a route at `rate` req/s, taking `micros` of server CPU per request. */
function run(round: number, path: string, rate: number, micros = 1e6 / rate): Run {
  return {
    round,
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

  it('leaves its input in its order', () => {
    const values = [3, 1, 2];
    median(values);
    assert.deepEqual(values, [3, 1, 2]);
  });
});

describe('summarise', () => {
  it('judges a target on the ratio within each round, which a slower machine does not move', () => {
    // The machine slows to half speed in round 3, after the baseline was timed and before the
    // route was; the route is 0.97× the baseline whenever both run at the same speed. The
    // ratio of medians says 0.485×; the median of the per-round ratios stays 0.97×.
    const baselineSpeed = [1, 1, 1, 0.5, 0.5];
    const routeSpeed = [1, 1, 0.5, 0.5, 0.5];
    const runs = baselineSpeed.flatMap((speed, i) => [
      run(i + 1, '/none', 10_000 * speed),
      run(i + 1, '/bearer', 9_700 * routeSpeed[i]!),
    ]);
    const [baseline, bearer] = summarise(routes, runs);
    assert.equal(baseline!.pairedRatio, 1);
    assert.equal(baseline!.pass, null);
    assert.ok(bearer!.ratio < 0.95, `ratio of medians ${bearer!.ratio}`);
    assert.ok(Math.abs(bearer!.pairedRatio - 0.97) < 1e-9, `paired ${bearer!.pairedRatio}`);
    assert.equal(bearer!.pass, true);
  });

  it('fails a route whose rounds are mostly below the target', () => {
    const ratios = [0.99, 0.9, 0.92, 0.93, 0.96];
    const runs = ratios.flatMap((r, i) => [
      run(i + 1, '/none', 10_000),
      run(i + 1, '/bearer', 10_000 * r),
    ]);
    const [, bearer] = summarise(routes, runs);
    assert.ok(Math.abs(bearer!.pairedRatio - 0.93) < 1e-9);
    assert.deepEqual(
      bearer!.pairedQuartiles.map((q) => Math.round(q * 1000) / 1000),
      [0.92, 0.96],
    );
    assert.equal(bearer!.pass, false);
  });

  it('reports the CPU ratio from the server time per request', () => {
    const runs = [run(1, '/none', 10_000, 80), run(1, '/bearer', 9_000, 100)];
    const [, bearer] = summarise(routes, runs);
    assert.equal(bearer!.cpuRatio, 0.8);
    assert.equal(bearer!.medianServerMicrosPerRequest, 100);
  });
});

describe('table', () => {
  it('prints every route with its paired ratio, quartiles and verdict', () => {
    const runs = [run(1, '/none', 10_000), run(1, '/bearer', 9_000)];
    const lines = table(summarise(routes, runs)).split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[0]!, /\| route +\| median req\/s \|.*\| paired ratio \| +paired IQR \|/);
    assert.match(lines[2]!, /^\| \/none .*\| baseline \|/);
    assert.match(
      lines[3]!,
      /^\| \/bearer .*\| +9,000 \|.*0\.900× .*0\.900–0\.900 .*≥ 0\.95× .*FAIL/,
    );
  });
});
