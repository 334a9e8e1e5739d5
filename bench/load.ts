// One timed load run: autocannon against one route of a server in another process, with the
// server's CPU time and the machine's other work measured around it.
import autocannon from 'autocannon';
import type { CpuTime } from './ipc.js';
import { childrenCpuMicros, machineBusyMicros } from './machine.js';
import type { Run } from './report.js';
import { fireWrk, type Fired } from './wrk.js';

/** A request to time: the path and the headers it carries. */
export interface Shot {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The load generator of timed runs: autocannon (the default), or wrk (`--client wrk`). */
export type LoadClient = 'autocannon' | 'wrk';

/** How the load is applied. */
export interface LoadSettings {
  readonly connections: number;
  readonly pipelining: number;
  /** Who sends the timed runs (default autocannon); runs of a number of requests use autocannon. */
  readonly client?: LoadClient;
}

/** A server under load: its port and its own CPU time so far. */
export interface Measured {
  readonly port: number;
  cpu(): Promise<CpuTime>;
}

/** How long a run lasts: seconds, or a number of requests. */
export type Length = { readonly seconds: number } | { readonly requests: number };

/**
 * One autocannon run; throws unless every response was a 2xx, so that nothing broken (a 401, a
 * 503, a reset connection) is ever timed as if it were an answer.
 */
export async function fire(
  port: number,
  shot: Shot,
  length: Length,
  settings: LoadSettings,
): Promise<autocannon.Result> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${shot.path}`,
    headers: { ...shot.headers },
    connections: settings.connections,
    pipelining: settings.pipelining,
    ...('seconds' in length ? { duration: length.seconds } : { amount: length.requests }),
  });
  return requireAll2xx(result, shot.path);
}

/** One run of `seconds` by the configured load generator, every response a 2xx. */
export async function fireFor(
  port: number,
  shot: Shot,
  seconds: number,
  settings: LoadSettings,
): Promise<Fired> {
  if (settings.client === 'wrk') return fireWrk(port, shot, seconds, settings.connections);
  const result = await fire(port, shot, { seconds }, settings);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
  };
}

/**
 * The result of an autocannon run, once every response is known to be a 2xx; throws otherwise,
 * naming `label`.
 */
export function requireAll2xx(result: autocannon.Result, label: string): autocannon.Result {
  const { non2xx, errors, timeouts } = result;
  const completed = result.requests.total;
  if (non2xx !== 0 || errors !== 0 || timeouts !== 0 || result['2xx'] !== completed) {
    throw new Error(
      `${label}: not every response was a 2xx (2xx ${result['2xx']} of ${completed}, ` +
        `non-2xx ${non2xx}, errors ${errors}, timeouts ${timeouts}); nothing broken is timed`,
    );
  }
  return result;
}

/** Where a run stands: its round, and its place among all the runs of the benchmark. */
export interface Place {
  readonly round: number;
  readonly sequence: number;
}

/** Times one run of `seconds` against `shot` and measures what it cost the server. */
export async function measure(
  server: Measured,
  shot: Shot,
  { round, sequence }: Place,
  seconds: number,
  settings: LoadSettings,
): Promise<Run> {
  const serverBefore = await server.cpu();
  const clientBefore = process.cpuUsage();
  const childrenBefore = childrenCpuMicros();
  const machineBefore = machineBusyMicros();
  const wallBefore = performance.now();
  const result = await fireFor(server.port, shot, seconds, settings);
  const wallMicros = (performance.now() - wallBefore) * 1000;
  const machineAfter = machineBusyMicros();
  const client = process.cpuUsage(clientBefore);
  // This process (autocannon, or waiting on wrk) and the wrk child it ran, if any.
  const clientMicros = client.user + client.system + childrenCpuMicros() - childrenBefore;
  const serverAfter = await server.cpu();
  const serverSystemMicros = serverAfter.system - serverBefore.system;
  const serverMicros = serverAfter.user - serverBefore.user + serverSystemMicros;
  const others =
    machineBefore === undefined || machineAfter === undefined
      ? null
      : Math.max(0, machineAfter - machineBefore - serverMicros - clientMicros) / wallMicros;
  const requests = result.requests;
  return {
    round,
    sequence,
    path: shot.path,
    requestsPerSecond: requests / result.seconds,
    requests,
    seconds: result.seconds,
    latencyP50: result.latencyP50,
    latencyP99: result.latencyP99,
    serverMicrosPerRequest: serverMicros / requests,
    serverSystemMicrosPerRequest: serverSystemMicros / requests,
    serverCpuShare: serverMicros / wallMicros,
    clientCpuShare: clientMicros / wallMicros,
    otherCores: others,
  };
}

/** The line printed after each timed run. */
export function runLine(run: Run, rounds: number, width: number): string {
  return (
    `round ${String(run.round).padStart(2)}/${rounds}  ${run.path.padEnd(width)}` +
    `${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s  ` +
    `server ${run.serverMicrosPerRequest.toFixed(1).padStart(5)} µs/req, ` +
    `CPU ${Math.round(run.serverCpuShare * 100)} %; ` +
    `client CPU ${Math.round(run.clientCpuShare * 100)} %` +
    (run.otherCores === null ? '' : `; others ${run.otherCores.toFixed(2)} cores`)
  );
}

/**
 * The order of `count` routes in round `round` (from 0): a Williams design, in which every route
 * follows every other one equally often, once in `count` rounds when `count` is even, twice in
 * `2 × count` when it is odd. Whatever a route leaves behind (garbage to collect, colder caches)
 * then falls on every other route alike. A rotation would not do: it keeps the cyclic order, so
 * each route would always come after the same one.
 */
export function williamsOrder(count: number, round: number): number[] {
  // The first row: 0, 1, n-1, 2, n-2, …; row r adds r to each, modulo n.
  const first = Array.from({ length: count }, (_, j) =>
    j % 2 === 1 ? (j + 1) / 2 : (count - j / 2) % count,
  );
  const rows = count % 2 === 0 ? count : 2 * count;
  const row = round % rows;
  const order = first.map((unit) => (unit + row) % count);
  // For an odd count, the second half of the rows are the first half's, reversed.
  return row < count ? order : order.reverse();
}

/**
 * Runs every route `rounds` times after one warm-up run of each. The baseline (the first shot)
 * runs before every other route and once more at the end, so that every timed run of a route
 * lies between two runs of the baseline a second away; the other routes run in the order of a
 * Williams design ({@link williamsOrder}), so that each follows every other one equally often.
 */
export async function rounds(
  server: Measured,
  shots: readonly Shot[],
  options: LoadSettings & { rounds: number; seconds: number; warmup: number },
): Promise<Run[]> {
  if (options.warmup > 0) {
    for (const shot of shots) await fireFor(server.port, shot, options.warmup, options);
  }
  const [baseline, ...others] = shots;
  if (baseline === undefined) return [];
  const width = Math.max(...shots.map((shot) => shot.path.length)) + 2;
  const runs: Run[] = [];
  const time = async (shot: Shot, round: number): Promise<void> => {
    const run = await measure(
      server,
      shot,
      { round, sequence: runs.length },
      options.seconds,
      options,
    );
    runs.push(run);
    console.error(runLine(run, options.rounds, width));
  };
  for (let round = 1; round <= options.rounds; round++) {
    const order = williamsOrder(others.length, round - 1).map((i) => others[i]!);
    for (const shot of order) {
      await time(baseline, round);
      await time(shot, round);
    }
  }
  await time(baseline, options.rounds);
  return runs;
}
