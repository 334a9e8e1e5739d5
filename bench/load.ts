// Timing: wrk (autocannon where wrk is not on PATH) against one route at a time, every answer
// checked, the server's CPU, the load generator's and the rest of the machine's measured around
// each run.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import type { ServerProcess } from './process.js';
import { median, type Run } from './report.js';
import { runWrk, wrkVersion, type FreshValues } from './wrk.js';

/** CPU time the whole machine has spent so far, µs, from /proc/stat (Linux; 0 elsewhere). */
function machineMicros(): number {
  try {
    // cpu user nice system idle iowait irq softirq steal, in 1/100 s; all but idle and iowait busy.
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const ticks = line.split(/\s+/).slice(1, 9).map(Number);
    return (ticks.reduce((sum, tick) => sum + tick, 0) - ticks[3]! - ticks[4]!) * 10_000;
  } catch {
    return 0;
  }
}

/** A process's CPU time, user and system, µs. */
const micros = ({ user, system }: NodeJS.CpuUsage) => user + system;

/** A request to time (its label unique in the run), part of its answer, its credential's header. */
export interface Shot {
  readonly label: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly credential?: string | undefined;
  /** A header new at every request, besides `headers` (a DPoP proof): each value sent once. */
  readonly fresh?: { readonly header: string; readonly values: FreshValues } | undefined;
}

export type Generator = 'wrk' | 'autocannon';

export type LoadSettings = {
  readonly connections: number;
  readonly pipelining: number;
  /** By default wrk when it is on PATH and requests are not pipelined, else autocannon. */
  readonly generator?: Generator | undefined;
};

/** The load generator of `settings`. */
export function generatorOf(settings: LoadSettings): Generator {
  if (settings.generator === 'wrk' && settings.pipelining > 1) {
    throw new Error('wrk pipelines no requests: --pipelining 1, or --generator autocannon');
  }
  if (settings.generator !== undefined) return settings.generator;
  return wrkVersion() !== undefined && settings.pipelining === 1 ? 'wrk' : 'autocannon';
}

/** A server's routes, its no-auth baseline first, timed in turns. */
export interface Group {
  readonly server: Pick<ServerProcess, 'port' | 'cpu'>;
  readonly shots: readonly [Shot, ...Shot[]];
}

/** What a run measured: its answers, every one a 2xx; the load generator's CPU time and threads. */
export interface Fired {
  readonly generator: Generator;
  readonly requests: number;
  readonly requestsPerSecond: number;
  /** Milliseconds. */
  readonly latencyP99: number;
  readonly generatorMicros: number;
  readonly threads: number;
}

/** A run's answers as both load generators count them. */
interface Answers {
  readonly total: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}

/** One run; throws unless every answer was a 2xx, so that nothing broken is timed. */
export async function fire(
  port: number,
  shot: Shot,
  length: { seconds: number } | { requests: number },
  settings: LoadSettings,
): Promise<Fired> {
  const generator = generatorOf(settings);
  const url = `http://127.0.0.1:${port}${shot.path}`;
  const { fired, answers } =
    generator === 'wrk'
      ? await fireWrk(url, shot, length, settings)
      : await fireAutocannon(url, shot, length, settings);
  const { total, ok, non2xx, errors, timeouts } = answers;
  if (non2xx !== 0 || errors !== 0 || timeouts !== 0 || ok !== total) {
    throw new Error(
      `${shot.label}: not every response was a 2xx (2xx ${ok} of ${total}, ` +
        `non-2xx ${non2xx}, errors ${errors}, timeouts ${timeouts})`,
    );
  }
  return fired;
}

/**
 * wrk counts the answers over 399, socket errors, and the answers later than 10 s as timeouts; a
 * 3xx passes, as the check before timing has seen a 200.
 */
async function fireWrk(
  url: string,
  shot: Shot,
  length: { seconds: number } | { requests: number },
  settings: LoadSettings,
) {
  const { connections } = settings;
  const run = await runWrk({ url, headers: shot.headers, fresh: shot.fresh, length, connections });
  const fired: Fired = {
    generator: 'wrk',
    requests: run.requests,
    requestsPerSecond: run.requests / (run.micros / 1e6),
    latencyP99: run.p99Micros / 1000,
    generatorMicros: run.cpuMicros,
    threads: run.threads,
  };
  const answers: Answers = {
    total: run.requests,
    ok: run.requests - run.status,
    non2xx: run.status,
    errors: run.connect + run.read + run.write,
    timeouts: run.timeout,
  };
  return { fired, answers };
}

/** autocannon, in this process: its CPU time is this process's over the run. */
async function fireAutocannon(
  url: string,
  shot: Shot,
  length: { seconds: number } | { requests: number },
  settings: LoadSettings,
) {
  const before = process.cpuUsage();
  const { fresh } = shot;
  const result = await autocannon({
    url,
    headers: { ...shot.headers },
    ...(fresh === undefined ? {} : { requests: [{ setupRequest: freshRequest(fresh) }] }),
    connections: settings.connections,
    pipelining: settings.pipelining,
    ...('seconds' in length ? { duration: length.seconds } : { amount: length.requests }),
  });
  const fired: Fired = {
    generator: 'autocannon',
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / result.duration,
    latencyP99: result.latency.p99,
    generatorMicros: micros(process.cpuUsage(before)),
    threads: 1,
  };
  const { non2xx, errors, timeouts } = result;
  const answers: Answers = {
    total: result.requests.total,
    ok: result['2xx'],
    non2xx,
    errors,
    timeouts,
  };
  return { fired, answers };
}

/** The fresh header of one request, once each; none once its values are spent. */
function freshHeaders(fresh: Shot['fresh']): Record<string, string> {
  const value = fresh?.values.next();
  return value === undefined ? {} : { [fresh!.header]: value };
}

/**
 * autocannon's hook that renders each request anew, here with its fresh header. It runs for every
 * request sent, the first of each connection included, and only then.
 */
function freshRequest(fresh: NonNullable<Shot['fresh']>) {
  return (request: autocannon.Request): autocannon.Request => ({
    ...request,
    headers: { ...request.headers, ...freshHeaders(fresh) },
  });
}

async function answer(port: number, path: string, headers: Readonly<Record<string, string>>) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  return { status: response.status, body: await response.text() };
}

/**
 * Before any timing: 200 and the body with the credential, 401 without it and with it spoilt; each
 * request with fresh headers of its own, so that a proof is refused for what is wrong with it, not
 * as a replay.
 */
export async function verify(port: number, shot: Shot) {
  const { body, credential } = shot;
  const headers = (): Record<string, string> => ({ ...shot.headers, ...freshHeaders(shot.fresh) });
  const ok = await answer(port, shot.path, headers());
  if (ok.status !== 200 || !ok.body.includes(body)) {
    throw new Error(`${shot.label} answered ${ok.status} ${ok.body}, not 200 ${body}`);
  }
  if (credential === undefined) return;
  const spoil = (value: string) => `${value.slice(0, -2)}!`;
  for (const spoilt of [false, true]) {
    const { [credential]: value, ...others } = headers();
    const sent = spoilt ? { ...others, [credential]: spoil(value!) } : others;
    const refused = await answer(port, shot.path, sent);
    if (refused.status !== 401) {
      throw new Error(`${shot.label} answered ${refused.status} to ${JSON.stringify(sent)}`);
    }
  }
}

/**
 * The order of the runs: each round, each group's baseline then its other routes, reversed every
 * other round; each baseline once more at the end, so that every run has one on either side.
 */
export function schedule<T>(groups: readonly (readonly [T, ...T[]])[], rounds: number) {
  const order: { round: number; group: number; item: T }[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const [group, [baseline, ...others]] of groups.entries()) {
      order.push({ round, group, item: baseline });
      for (const item of round % 2 === 0 ? others.toReversed() : others) {
        order.push({ round, group, item });
      }
    }
  }
  const last = new Map(groups.map(([baseline], group) => [baseline, group]));
  for (const [item, group] of last) order.push({ round: rounds, group, item });
  return order;
}

/** Sends every route of every group its load for `warmup` seconds, untimed. */
export async function warmUp(
  groups: readonly Group[],
  options: LoadSettings & { warmup: number },
): Promise<void> {
  for (const { server, shots } of options.warmup > 0 ? groups : []) {
    for (const shot of shots) await fire(server.port, shot, { seconds: options.warmup }, options);
  }
}

/**
 * Warms every route up, then times the rounds, with the server's CPU, the load generator's, and
 * what the rest of the machine spent beside them and this process; `eachRound` is called before
 * each round's first run (to time something in this process in the same rounds).
 */
export async function rounds(
  groups: readonly Group[],
  options: LoadSettings & { rounds: number; seconds: number; warmup: number },
  eachRound?: (round: number) => void,
): Promise<Run[]> {
  await warmUp(groups, options);
  const runs: Run[] = [];
  const others: number[] = [];
  const lists = groups.map((g) => g.shots);
  let current = 0;
  for (const { round, group, item } of schedule(lists, options.rounds)) {
    if (round !== current) {
      current = round;
      eachRound?.(round);
    }
    const { server, shots } = groups[group]!;
    const serverBefore = micros(await server.cpu());
    const ownBefore = process.cpuUsage();
    const machineBefore = machineMicros();
    const wallBefore = performance.now();
    const fired = await fire(server.port, item, { seconds: options.seconds }, options);
    const wall = (performance.now() - wallBefore) * 1000;
    const own = micros(process.cpuUsage(ownBefore));
    const machine = machineMicros() - machineBefore;
    const serverMicros = micros(await server.cpu()) - serverBefore;
    // autocannon's time is this process's; wrk's, its child's.
    const bench = fired.generator === 'wrk' ? own + fired.generatorMicros : own;
    const run: Run = {
      round,
      sequence: runs.length,
      label: item.label,
      baseline: shots[0].label,
      requestsPerSecond: fired.requestsPerSecond,
      latencyP99: fired.latencyP99,
      serverMicrosPerRequest: serverMicros / fired.requests,
      clientCpuShare: fired.generatorMicros / wall / fired.threads,
    };
    runs.push(run);
    others.push((machine - serverMicros - bench) / wall);
    const rate = Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(7);
    console.error(`round ${round}/${options.rounds}  ${run.label.padEnd(34)}${rate} req/s`);
  }
  const busiest = Math.max(...others).toFixed(2);
  console.log(
    `others    kept ${median(others).toFixed(2)} cores busy (median of the runs; max ${busiest})`,
  );
  return runs;
}
