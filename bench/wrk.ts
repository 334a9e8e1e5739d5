// wrk (https://github.com/wg/wrk), a load generator written in C, as the alternative to
// autocannon: `--client wrk`. autocannon is one JavaScript thread and, on a 2-core machine, can
// cost as much a request as a fast route does; wrk costs a fraction of that, so the server sets
// the pace in every run. Installed apart (`apt-get install wrk`); runs of seconds only.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Shot } from './load.js';

const run = promisify(execFile);

/** What a timed run of either load generator reports. */
export interface Fired {
  readonly requests: number;
  readonly seconds: number;
  /** Median and 99th percentile latency, ms. */
  readonly latencyP50: number;
  readonly latencyP99: number;
}

/** wrk's command line for `shot` on 127.0.0.1:`port`: one thread, `connections` connections. */
export function wrkArgs(port: number, shot: Shot, seconds: number, connections: number): string[] {
  const headers = Object.entries(shot.headers).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ]);
  return [
    '-t1',
    `-c${String(connections)}`,
    `-d${String(seconds)}s`,
    '--latency',
    ...headers,
    `http://127.0.0.1:${String(port)}${shot.path}`,
  ];
}

const UNITS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyAt(output: string, percent: string): number {
  const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output);
  if (match === null) throw new Error(`wrk: no ${percent}% latency in:\n${output}`);
  return Number(match[1]) * (UNITS[match[2]!] as number);
}

/**
 * The figures of wrk's report (`--latency`); throws, naming `label`, unless every response was
 * a 2xx and no socket failed, so that nothing broken is ever timed as if it were an answer.
 */
export function parseWrk(output: string, label: string): Fired {
  const total = /^\s*(\d+) requests in ([\d.]+)(us|ms|s|m),/m.exec(output);
  if (total === null) throw new Error(`wrk: no request count in:\n${output}`);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const failed = [non2xx?.[1], ...(socket?.slice(1) ?? [])].some(
    (n) => n !== undefined && n !== '0',
  );
  if (failed) {
    throw new Error(
      `${label}: not every response was a 2xx (wrk); nothing broken is timed:\n${output}`,
    );
  }
  return {
    requests: Number(total[1]),
    seconds: (Number(total[2]) * (UNITS[total[3]!] as number)) / 1000,
    latencyP50: latencyAt(output, '50'),
    latencyP99: latencyAt(output, '99'),
  };
}

/** One wrk run of `seconds` against `shot`. */
export async function fireWrk(
  port: number,
  shot: Shot,
  seconds: number,
  connections: number,
): Promise<Fired> {
  const { stdout } = await run('wrk', wrkArgs(port, shot, seconds, connections));
  return parseWrk(stdout, shot.path);
}

/** What a flood's wrk reports: answers by status, the slowest, and how many outlived the timeout. */
export interface Flood {
  readonly statuses: Readonly<Record<string, number>>;
  readonly slowestMs: number;
  readonly timeouts: number;
}

/**
 * The figures of a flood's wrk report, whose script printed `status <code> <count>` lines; throws
 * unless every figure is there, and when a socket failed other than by timing out.
 */
export function parseFlood(output: string): Flood {
  const statuses: Record<string, number> = {};
  for (const [, status = '', count = ''] of output.matchAll(/^status (\d{3}) (\d+)$/gm)) {
    statuses[status] = Number(count);
  }
  const max = /^\s*Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)\s/m.exec(output);
  if (max === null || Object.keys(statuses).length === 0) {
    throw new Error(`wrk: no latency or statuses in:\n${output}`);
  }
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  if (socket !== null && socket.slice(1, 4).some((n) => n !== '0')) {
    throw new Error(`wrk: sockets failed in the flood:\n${output}`);
  }
  return {
    statuses,
    slowestMs: Number(max[1]) * (UNITS[max[2]!] as number),
    timeouts: Number(socket?.[4] ?? 0),
  };
}
