// Reading wrk (https://github.com/wg/wrk, Debian's `wrk`), the C load generator bench:flood runs
// its two clients with: far cheaper a request than a JavaScript client, so the service sets the
// pace.
import type { Shot } from './load.js';

/** wrk's command line for `shot` on 127.0.0.1:`port`: one thread, `connections` connections. */
export function wrkArgs(port: number, shot: Shot, seconds: number, connections: number): string[] {
  return [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...Object.entries(shot.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    `http://127.0.0.1:${port}${shot.path}`,
  ];
}

const UNITS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const ms = (value: string, unit: string) => Number(value) * UNITS[unit]!;
const SOCKET = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/;

/**
 * The request count and 99th percentile latency (ms) of wrk's report (`--latency`); throws,
 * naming `label`, unless every response was a 2xx and no socket failed.
 */
export function parseWrk(output: string, label: string) {
  const total = /^\s*(\d+) requests in /m.exec(output);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(output);
  if (total === null || p99 === null) throw new Error(`wrk: no requests or p99 in:\n${output}`);
  const failed = [
    /Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1],
    ...(SOCKET.exec(output) ?? []).slice(1),
  ];
  if (failed.some((n) => n !== undefined && n !== '0')) {
    throw new Error(`${label}: not every response was a 2xx; nothing broken is timed:\n${output}`);
  }
  return { requests: Number(total[1]), latencyP99: ms(p99[1]!, p99[2]!) };
}

/**
 * A flood's figures: answers by status (from the `status <code> <count>` lines its script
 * prints), the slowest answer (ms) and how many outlived the timeout; throws when a figure is
 * missing or a socket failed other than by timing out.
 */
export function parseFlood(output: string) {
  const statuses: Record<string, number> = {};
  for (const [, status = '', count = ''] of output.matchAll(/^status (\d{3}) (\d+)$/gm)) {
    statuses[status] = Number(count);
  }
  const max = /^\s*Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)\s/m.exec(output);
  if (max === null || Object.keys(statuses).length === 0) {
    throw new Error(`wrk: no latency or statuses in:\n${output}`);
  }
  const socket = SOCKET.exec(output);
  if (socket !== null && socket.slice(1, 4).some((n) => n !== '0')) {
    throw new Error(`wrk: sockets failed in the flood:\n${output}`);
  }
  return { statuses, slowestMs: ms(max[1]!, max[2]!), timeouts: Number(socket?.[4] ?? 0) };
}
