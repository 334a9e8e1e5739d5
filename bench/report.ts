// The arithmetic of the reports: medians over rounds, each run's ratio to the baseline runs of its
// own server around it, distribution-free 95 % intervals, the tables, what a route costs beyond
// another in units timed in process, and the memory verdict.

/** One timed run of one route; `sequence` is its place in the order of timing. */
export interface Run {
  readonly round: number;
  readonly sequence: number;
  readonly label: string;
  /** The label of its server's no-auth baseline (its own, for a baseline run). */
  readonly baseline: string;
  readonly requestsPerSecond: number;
  readonly latencyP99: number;
  readonly serverMicrosPerRequest: number;
  /** The load generator's CPU time over wall time, a thread: near 1, it set the pace. */
  readonly clientCpuShare: number;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
}

/**
 * A distribution-free confidence interval of the median, at 95 % or a little more: the order
 * statistics whose ranks lie 1.96 standard deviations of a Binomial(n, ½) either side of n/2,
 * rounded outwards. With ten values or fewer it is their whole range.
 */
export function medianInterval(values: readonly number[]): readonly [number, number] {
  const sorted = values.toSorted((a, b) => a - b);
  const n = sorted.length;
  const half = (1.96 * Math.sqrt(n)) / 2;
  const lower = Math.max(0, Math.floor(n / 2 - half) - 1);
  const upper = Math.min(n - 1, Math.ceil(n / 2 + half));
  return [sorted[lower]!, sorted[upper]!];
}

/** `run`'s requests/s over the mean of its baseline's runs timed just before and just after it. */
function pairedRatio(run: Run, runs: readonly Run[]): number {
  const baselines = runs.filter((other) => other.label === run.baseline && other !== run);
  const before = baselines.findLast((other) => other.sequence < run.sequence);
  const after = baselines.find((other) => other.sequence > run.sequence);
  const around = [before, after].filter((other) => other !== undefined);
  if (around.length === 0) throw new Error(`${run.label}: no baseline run to compare with`);
  const mean = around.reduce((sum, other) => sum + other.requestsPerSecond, 0) / around.length;
  return run.requestsPerSecond / mean;
}

/** Each route's medians over its runs, in the order of `labels`; its paired ratios' interval. */
export function summarise(labels: readonly string[], runs: readonly Run[]) {
  const ordered = runs.toSorted((a, b) => a.sequence - b.sequence);
  return labels.map((label) => {
    const mine = ordered.filter((run) => run.label === label);
    if (mine.length === 0) throw new Error(`${label}: no runs`);
    const ratios = mine.map((run) => pairedRatio(run, ordered));
    const of = (figure: (run: Run) => number) => median(mine.map(figure));
    return {
      label,
      requestsPerSecond: of((run) => run.requestsPerSecond),
      ratio: median(ratios),
      interval: medianInterval(ratios),
      latencyP99: of((run) => run.latencyP99),
      serverMicrosPerRequest: of((run) => run.serverMicrosPerRequest),
      clientCpuShare: of((run) => run.clientCpuShare),
    };
  });
}

/** What a target compares: `first` must reach `times` × `second`; without `times`, a ratio only. */
export interface Target {
  readonly first: { readonly label: string };
  readonly second: { readonly label: string };
  readonly times?: number;
  /** Compare each run's ratio to its own baseline: for routes of servers with other baselines. */
  readonly paired?: boolean;
}

/**
 * Route `first`'s requests/s over `second`'s, round by round, or with `paired` their runs' ratios
 * to their own baselines: the median and its interval.
 */
export function versus(
  runs: readonly Run[],
  { first, second, paired = false }: Omit<Target, 'times'>,
) {
  const ordered = runs.toSorted((a, b) => a.sequence - b.sequence);
  const ratios: number[] = [];
  for (const round of new Set(ordered.map((run) => run.round))) {
    const figure = (label: string) => {
      const run = ordered.find((other) => other.round === round && other.label === label);
      if (run === undefined) return undefined;
      return paired ? pairedRatio(run, ordered) : run.requestsPerSecond;
    };
    const [a, b] = [figure(first.label), figure(second.label)];
    if (a !== undefined && b !== undefined) ratios.push(a / b);
  }
  return { ratio: median(ratios), interval: medianInterval(ratios) };
}

const times = (n: number) => `${n.toFixed(2)}×`;
const range = ([low, high]: readonly [number, number]) => `${low.toFixed(2)}–${high.toFixed(2)}`;

/** Rows of cells as a Markdown table, the first row its header; all but the first column right. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  const rule = widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`));
  return [line(rows[0]!), line(rule), ...rows.slice(1).map(line)].join('\n');
}

/** A route's figures over its runs. */
export type Summary = ReturnType<typeof summarise>[number];

/** The summaries as the table the load benchmarks print. */
export function table(summaries: readonly Summary[]): string {
  return markdownTable([
    ['route', 'req/s', '× no auth', '95 % CI', 'p99 ms', 'server µs/req', 'load gen CPU'],
    ...summaries.map((s) => [
      s.label,
      Math.round(s.requestsPerSecond).toLocaleString('en-US'),
      times(s.ratio),
      range(s.interval),
      s.latencyP99.toFixed(1),
      s.serverMicrosPerRequest.toFixed(1),
      `${Math.round(s.clientCpuShare * 100)} %`,
    ]),
  ]);
}

/**
 * Each target as a row: route `first` over route `second` round by round, against `times`, or
 * without it their ratio alone, judged by no one.
 */
export function targetTable(runs: readonly Run[], targets: readonly Target[]): string {
  return markdownTable([
    ['target', 'measured', '95 % CI', 'met'],
    ...targets.map((target) => {
      const { ratio, interval } = versus(runs, target);
      const [first, second] = [target.first.label, target.second.label];
      if (target.times === undefined) {
        return [`${first} ÷ ${second}`, times(ratio), range(interval), '—'];
      }
      return [
        `${first} ≥ ${target.times}× ${second}`,
        times(ratio),
        range(interval),
        ratio >= target.times ? 'yes' : 'NO',
      ];
    }),
  ]);
}

/** Something timed in this process once a round, in µs, to judge server time against. */
export interface UnitTiming {
  readonly round: number;
  readonly micros: number;
}

/** What a cost target judges: route `first`'s server time a request beyond route `second`'s. */
export interface CostTarget {
  readonly first: { readonly label: string };
  readonly second: { readonly label: string };
  /** At most this many units. */
  readonly times: number;
}

/**
 * Route `first`'s server µs a request minus route `second`'s, round by round, and that difference
 * over the unit timed in the same round: the medians and their intervals, and the unit's own.
 */
export function extraCost(
  runs: readonly Run[],
  { first, second }: Omit<CostTarget, 'times'>,
  units: readonly UnitTiming[],
) {
  const extra: number[] = [];
  const ratios: number[] = [];
  for (const unit of units) {
    const figure = (label: string) =>
      runs.find((run) => run.round === unit.round && run.label === label)?.serverMicrosPerRequest;
    const [a, b] = [figure(first.label), figure(second.label)];
    if (a === undefined || b === undefined) continue;
    extra.push(a - b);
    ratios.push((a - b) / unit.micros);
  }
  if (extra.length === 0) {
    throw new Error(`${first.label} − ${second.label}: no round with both and the unit`);
  }
  const unitMicros = units.map((unit) => unit.micros);
  return {
    micros: median(extra),
    microsInterval: medianInterval(extra),
    ratio: median(ratios),
    interval: medianInterval(ratios),
    unit: median(unitMicros),
    unitInterval: medianInterval(unitMicros),
  };
}

const micros = (n: number) => n.toFixed(1);
const microsRange = ([low, high]: readonly [number, number]) => `${micros(low)}–${micros(high)}`;

/**
 * Each cost target as a row: the server µs a request route `first` adds to route `second`, round
 * by round, and that in units, judged against `times`; then the unit itself, timed in this process.
 */
export function costTable(
  runs: readonly Run[],
  targets: readonly CostTarget[],
  unit: { readonly label: string; readonly timings: readonly UnitTiming[] },
): string {
  const rows = targets.map((target) => {
    const cost = extraCost(runs, target, unit.timings);
    return [
      `${target.first.label} − ${target.second.label} ≤ ${target.times}× ${unit.label}`,
      micros(cost.micros),
      microsRange(cost.microsInterval),
      times(cost.ratio),
      range(cost.interval),
      cost.ratio <= target.times ? 'yes' : 'NO',
    ];
  });
  const unitMicros = unit.timings.map((timing) => timing.micros);
  return markdownTable([
    ['target', 'server µs/req', '95 % CI', 'units', '95 % CI', 'met'],
    ...rows,
    [
      `${unit.label}, in this process`,
      micros(median(unitMicros)),
      microsRange(medianInterval(unitMicros)),
      '1.00×',
      '',
      '',
    ],
  ]);
}

/** How far the heap after a full collection may grow over a million requests: 2 MiB. */
export const FLAT_LIMIT_BYTES_PER_MILLION = 2 * 2 ** 20;

/**
 * Flat when no sample after the first exceeds the first by more than the limit, scaled to the
 * requests served (never below it). A leak of one small object a request is a hundred times that.
 */
export function memoryVerdict(points: readonly { requests: number; heapUsed: number }[]) {
  const [first, last] = [points[0]!, points.at(-1)!];
  const allowed =
    Math.max(1, (last.requests - first.requests) / 1e6) * FLAT_LIMIT_BYTES_PER_MILLION;
  const highest = Math.max(...points.slice(1).map((point) => point.heapUsed));
  return { first, last, flat: highest - first.heapUsed <= allowed };
}
