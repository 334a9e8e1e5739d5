/** One timed autocannon run against one route. */
export interface Run {
  readonly round: number;
  /** Its place among all the runs of the benchmark, in the order they were timed. */
  readonly sequence: number;
  readonly path: string;
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly seconds: number;
  readonly latencyP50: number;
  readonly latencyP99: number;
  /** Server CPU time per request, µs. */
  readonly serverMicrosPerRequest: number;
  /**
   * Of which system time, spent by the kernel on the server's behalf (its sockets, mostly), µs.
   * Absent from runs saved before 2026-11-24 09:20 UTC.
   */
  readonly serverSystemMicrosPerRequest?: number;
  /** Server CPU time over wall time: close to 1 when the server is the bottleneck. */
  readonly serverCpuShare: number;
  /** autocannon's (this process's) CPU time over wall time. */
  readonly clientCpuShare: number;
  /**
   * CPU time of everything else on the machine over wall time, in cores (Linux only): how much
   * other processes competed with the benchmark during this run.
   */
  readonly otherCores: number | null;
}

/** A route as compared: the first of a list is the baseline; `target` is the ratio it must keep. */
export interface Compared {
  readonly path: string;
  /** `baseline` for the first; anything else is printed as given. */
  readonly kind: string;
  readonly description: string;
  readonly target: number | null;
}

/** A route's figures over all rounds, compared with the baseline route. */
export interface Summary {
  readonly path: string;
  readonly kind: string;
  readonly description: string;
  readonly medianRequestsPerSecond: number;
  readonly minRequestsPerSecond: number;
  readonly maxRequestsPerSecond: number;
  /** Median req/s over the baseline's median req/s. */
  readonly ratio: number;
  /**
   * Median over runs of req/s over the mean req/s of the baseline runs just before and just
   * after it: the figure the target is judged on. Each run lies between two baseline runs a
   * second away, so a change of the machine's speed during the benchmark (on a shared virtual
   * machine, up to 2× for the very same work) cancels out of it, where it does not out of the
   * ratio of medians taken minutes apart. Only pairs the server set the pace of count: a run
   * where autocannon had a whole core ({@link CLIENT_SATURATED}), or whose baseline runs around
   * it were such runs, measured the load generator and is left out (all are used, and
   * `pairedRuns` is 0, only when no pair is left).
   */
  readonly pairedRatio: number;
  /** How many runs the paired figures come from: those whose pair the server set the pace of. */
  readonly pairedRuns: number;
  /** How many runs the route has. */
  readonly runs: number;
  /** The paired ratio over every run, the ones the load generator limited included. */
  readonly pairedRatioAllRuns: number;
  /** The first and third quartiles of the per-run ratios: how much they spread. */
  readonly pairedQuartiles: readonly [number, number];
  /**
   * A 95 % confidence interval of the paired ratio (of the median of the per-run ratios), free
   * of any assumption about their distribution: how far another run of the same length could
   * move it.
   */
  readonly pairedInterval: readonly [number, number];
  readonly medianServerMicrosPerRequest: number;
  /**
   * The baseline's server CPU per request over this route's: the throughput ratio a server with
   * a core of its own would see. Less disturbed by other processes than req/s.
   */
  readonly cpuRatio: number;
  readonly medianServerCpuShare: number;
  readonly target: number | null;
  readonly pass: boolean | null;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * The `q`-quantile of a non-empty list, interpolated between the two nearest ranks (the method
 * of R's default and of NumPy's `linear`).
 */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (sorted.length - 1) * q;
  const below = Math.floor(rank);
  const above = Math.ceil(rank);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (rank - below);
}

/**
 * The baseline runs around a run: the one timed just before it and the one just after (one
 * alone at the ends of the benchmark).
 */
function baselineAround(run: Run, baselineRuns: readonly Run[]): Run[] {
  let before: Run | undefined;
  let after: Run | undefined;
  for (const base of baselineRuns) {
    if (base.sequence < run.sequence && (before === undefined || base.sequence > before.sequence)) {
      before = base;
    }
    if (base.sequence > run.sequence && (after === undefined || base.sequence < after.sequence)) {
      after = base;
    }
  }
  const around = [before, after].filter((base) => base !== undefined);
  if (around.length === 0) throw new Error(`${run.path}: no baseline run to compare with`);
  return around;
}

/** A run's req/s over the mean req/s of the baseline runs around it. */
function pairedRatioOf(run: Run, around: readonly Run[]): number {
  return (
    run.requestsPerSecond /
    (around.reduce((sum, base) => sum + base.requestsPerSecond, 0) / around.length)
  );
}

/**
 * A distribution-free confidence interval of the median of `values`, at 95 % or a little more:
 * the order statistics whose ranks lie 1.96 standard deviations of a Binomial(n, ½) either side
 * of n/2, rounded outwards. With ten values or fewer it is their whole range.
 */
export function medianInterval(values: readonly number[]): readonly [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const half = (1.96 * Math.sqrt(n)) / 2;
  const lower = Math.max(0, Math.floor(n / 2 - half) - 1);
  const upper = Math.min(n - 1, Math.ceil(n / 2 + half));
  return [sorted[lower]!, sorted[upper]!];
}

/** autocannon's CPU share from which a run counts as limited by the load generator. */
export const CLIENT_SATURATED = 0.95;

const saturated = (run: Run) => run.clientCpuShare >= CLIENT_SATURATED;

/** Summarises the runs of each route against those of the first (the baseline). */
export function summarise(routes: readonly Compared[], runs: readonly Run[]): Summary[] {
  const baselinePath = routes[0]!.path;
  const of = (path: string) => runs.filter((run) => run.path === path);
  const baselineRuns = of(baselinePath);
  const baselineRate = median(baselineRuns.map((run) => run.requestsPerSecond));
  const baselineMicros = median(baselineRuns.map((run) => run.serverMicrosPerRequest));
  return routes.map((route) => {
    const mine = of(route.path);
    const rates = mine.map((run) => run.requestsPerSecond);
    const micros = median(mine.map((run) => run.serverMicrosPerRequest));
    const ratio = median(rates) / baselineRate;
    const pairs =
      route.path === baselinePath
        ? [{ ratio: 1, serverBound: true }]
        : mine.map((run) => {
            const around = baselineAround(run, baselineRuns);
            return {
              ratio: pairedRatioOf(run, around),
              serverBound: !saturated(run) && !around.some(saturated),
            };
          });
    const all = pairs.map((pair) => pair.ratio);
    const bound = pairs.filter((pair) => pair.serverBound).map((pair) => pair.ratio);
    const paired = bound.length > 0 ? bound : all;
    const routeTarget = route.target;
    return {
      path: route.path,
      kind: route.kind,
      description: route.description,
      medianRequestsPerSecond: median(rates),
      minRequestsPerSecond: Math.min(...rates),
      maxRequestsPerSecond: Math.max(...rates),
      ratio,
      pairedRatio: median(paired),
      pairedRuns: bound.length,
      runs: pairs.length,
      pairedRatioAllRuns: median(all),
      pairedQuartiles: [quantile(paired, 0.25), quantile(paired, 0.75)],
      pairedInterval: medianInterval(paired),
      medianServerMicrosPerRequest: micros,
      cpuRatio: baselineMicros / micros,
      medianServerCpuShare: median(mine.map((run) => run.serverCpuShare)),
      target: routeTarget,
      pass: routeTarget === null ? null : median(paired) >= routeTarget,
    };
  });
}

/** A count rounded to a whole number, with thousands separated: `71,947`. */
export const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
const times = (n: number) => `${n.toFixed(3)}×`;

function verdict(s: Summary): string {
  if (s.pass !== null) return s.pass ? 'pass' : 'FAIL';
  return s.kind === 'baseline' ? 'baseline' : 'reported';
}

/** The summaries as a Markdown table. */
export function table(summaries: readonly Summary[]): string {
  const rows = [
    [
      'route',
      'median req/s',
      'min–max req/s',
      'ratio',
      'paired ratio',
      'paired 95 % CI',
      'pairs',
      'all pairs',
      'target',
      'result',
      'server µs/req',
      'CPU ratio',
      'server CPU',
    ],
    ...summaries.map((s) => [
      s.path,
      thousands(s.medianRequestsPerSecond),
      `${thousands(s.minRequestsPerSecond)}–${thousands(s.maxRequestsPerSecond)}`,
      times(s.ratio),
      times(s.pairedRatio),
      `${s.pairedInterval[0].toFixed(3)}–${s.pairedInterval[1].toFixed(3)}`,
      s.kind === 'baseline'
        ? '—'
        : `${s.pairedRuns} of ${s.runs}${s.pairedRuns === 0 ? ' (all used)' : ''}`,
      s.kind === 'baseline' ? '—' : times(s.pairedRatioAllRuns),
      s.target === null ? '—' : `≥ ${s.target.toFixed(2)}×`,
      verdict(s),
      s.medianServerMicrosPerRequest.toFixed(1),
      times(s.cpuRatio),
      `${Math.round(s.medianServerCpuShare * 100)} %`,
    ]),
  ];
  return markdownTable(rows);
}

/** Rows of cells as a Markdown table, the first row its header; columns after the first align right. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const cells = (row: readonly string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)));
  const rule = widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`));
  return rows
    .map((row) => `| ${cells(row).join(' | ')} |`)
    .toSpliced(1, 0, `| ${rule.join(' | ')} |`)
    .join('\n');
}

/**
 * How many runs the load generator, rather than the server, may have limited: autocannon is one
 * thread, and at {@link CLIENT_SATURATED} of a core or more it cannot send faster, so the
 * route's requests/s understates what the server could do. Counted apart for the baseline,
 * where it matters most: an understated baseline overstates every ratio.
 */
export function clientSaturation(
  runs: readonly Run[],
  baselinePath: string,
): {
  readonly baseline: number;
  readonly baselineRuns: number;
  readonly others: number;
  readonly otherRuns: number;
} {
  const baseline = runs.filter((run) => run.path === baselinePath);
  const others = runs.filter((run) => run.path !== baselinePath);
  return {
    baseline: baseline.filter(saturated).length,
    baselineRuns: baseline.length,
    others: others.filter(saturated).length,
    otherRuns: others.length,
  };
}

/** One line for the report: where the load generator (`client`) may have been the bottleneck. */
export function saturationLine(
  runs: readonly Run[],
  baselinePath: string,
  client = 'autocannon',
): string {
  const s = clientSaturation(runs, baselinePath);
  const share = `${Math.round(CLIENT_SATURATED * 100)} %`;
  const head = `client    ${client} at ≥ ${share} of a core in ${s.baseline} of ${s.baselineRuns} baseline runs and ${s.others} of ${s.otherRuns} others`;
  return s.baseline === 0 && s.others === 0
    ? `${head}: the server was the bottleneck throughout`
    : `${head}: there the load generator, not the server, set the pace; those runs, and the runs paired with such baseline runs, are left out of the paired ratios (column "pairs"; "all pairs" keeps them)`;
}

/**
 * One line for the report: each route's server CPU time a request split into the time in its
 * own code (user) and in the kernel (system), medians over its runs; `undefined` when the runs
 * do not record the split (saved before it was measured). Two routes whose requests cost the
 * same instructions can differ in time; this says on which side of the system-call boundary.
 */
export function kernelLine(runs: readonly Run[], paths: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const path of paths) {
    const split = runs.filter(
      (run) => run.path === path && run.serverSystemMicrosPerRequest !== undefined,
    );
    if (split.length === 0) return undefined;
    const system = split.map((run) => run.serverSystemMicrosPerRequest as number);
    const user = split.map((run, i) => run.serverMicrosPerRequest - (system[i] as number));
    parts.push(`${path} ${median(user).toFixed(1)} + ${median(system).toFixed(1)}`);
  }
  return `kernel    server µs a request, user + system (medians): ${parts.join(', ')}`;
}

/** What `npm run bench` and `npm run bench:service` write to `bench/results/`, in the part read here. */
export interface SavedResults {
  readonly commit: string;
  /** The options of the run; `client` is absent from runs saved before `--client` existed. */
  readonly settings?: { readonly client?: string };
  readonly summaries: readonly Compared[];
  readonly runs: readonly Run[];
}

/**
 * The routes and runs of several saved results as one benchmark. Each file's runs begin and end
 * with a baseline run, so once the files are laid one after the other, every run still lies
 * between baseline runs of its own file. A route is pooled over the files that time it: a run
 * of some routes only (`--routes`) adds to those.
 *
 * @throws Error when the files have different baselines, or one does not begin and end with
 *   its baseline.
 */
export function pool(saved: readonly SavedResults[]): { compared: Compared[]; runs: Run[] } {
  const [first] = saved;
  if (first === undefined) throw new Error('no results to summarise');
  const baseline = first.summaries[0]!.path;
  const compared: Compared[] = [];
  const runs: Run[] = [];
  let offset = 0;
  for (const [i, results] of saved.entries()) {
    const theirs = results.summaries[0]?.path;
    if (theirs !== baseline) {
      throw new Error(`results ${i + 1} have the baseline ${theirs}, not ${baseline} as the first`);
    }
    for (const { path, kind, description, target } of results.summaries) {
      if (!compared.some((route) => route.path === path)) {
        compared.push({ path, kind, description, target });
      }
    }
    const ordered = results.runs.toSorted((a, b) => a.sequence - b.sequence);
    if (ordered[0]?.path !== baseline || ordered.at(-1)?.path !== baseline) {
      throw new Error(`results ${i + 1} do not begin and end with a run of ${baseline}`);
    }
    runs.push(...ordered.map((run) => ({ ...run, sequence: run.sequence + offset })));
    offset += ordered.at(-1)!.sequence + 1;
  }
  return { compared, runs };
}
