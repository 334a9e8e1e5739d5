// wrk as the load generator: a thread per CPU this process may run on (the child inherits its
// pinning), its figures from bench/wrk.lua's done(), its CPU time from what the kernel adds to
// this process's children when it exits.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./wrk.lua', import.meta.url));
/** A run of a number of requests ends when they are answered; wrk must be given a duration. */
const REQUESTS_CAP_SECONDS = 600;
/** An answer later than this counts as a timeout (wrk's default is 2 s; autocannon's, 10 s). */
const TIMEOUT = '10s';

let version: string | null | undefined;

/** wrk's version (`debian/4.1.0-3+b2 [epoll]`) when it is on PATH, else `undefined`. */
export function wrkVersion(): string | undefined {
  if (version === undefined) {
    // `wrk -v` prints the version, then its usage, and exits 1.
    const { stdout, error } = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
    version = error === undefined ? (/^wrk (.+?) Copyright/m.exec(stdout)?.[1] ?? '?') : null;
  }
  return version ?? undefined;
}

/** Values of a header new at every request, one a line in a file, each to be sent once. */
export interface FreshValues {
  /** The next value, counted as spent; `undefined` once all are. */
  next(): string | undefined;
  /** The file of the values, one a line, and the byte where the next one starts. */
  readonly file: string;
  readonly offset: number;
  /** Counts the next `count` values spent: read from the file by the load generator. */
  spend(count: number): void;
}

/** What bench/wrk.lua prints: wrk's summary (µs), the answers over 399, and the values read. */
export interface WrkFigures {
  readonly requests: number;
  readonly micros: number;
  readonly p99Micros: number;
  readonly status: number;
  readonly connect: number;
  readonly read: number;
  readonly write: number;
  readonly timeout: number;
  readonly spent: number;
}

const MARK = 'vouch-wrk ';

/** The figures in wrk's output, from the line bench/wrk.lua's done() writes. */
export function parseWrkOutput(stdout: string): WrkFigures {
  const line = stdout.split('\n').find((text) => text.startsWith(`${MARK}{`));
  if (line === undefined) throw new Error(`wrk printed no figures:\n${stdout}`);
  return JSON.parse(line.slice(MARK.length)) as WrkFigures;
}

/** CPU time of this process's children that have exited, µs (Linux; 0 elsewhere). */
function childrenMicros(): number {
  try {
    // After the command's closing parenthesis: fields 3 onwards; cutime and cstime are 16 and 17.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10_000;
  } catch {
    return 0;
  }
}

/** Threads for `connections`: the most that divide them evenly and have a CPU each. */
export function wrkThreads(connections: number): number {
  let threads = Math.min(availableParallelism(), connections);
  while (connections % threads !== 0) threads--;
  return threads;
}

/** What a run sends: to which URL, with which headers, for how long or how many requests. */
export interface WrkLoad {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fresh?: { readonly header: string; readonly values: FreshValues } | undefined;
  readonly length: { seconds: number } | { requests: number };
  readonly connections: number;
}

/**
 * Runs wrk once, with bench/wrk.lua; the values of `fresh` it read are spent, sent or not. Throws
 * when wrk fails; the answers it counts are the caller's to judge.
 */
export async function runWrk(load: WrkLoad) {
  const { length, connections, fresh } = load;
  const threads = wrkThreads(connections);
  const requests = 'requests' in length ? length.requests : undefined;
  const seconds = 'seconds' in length ? length.seconds : REQUESTS_CAP_SECONDS;
  if (!Number.isInteger(seconds)) throw new Error(`wrk runs whole seconds, not ${seconds}`);
  const env: Record<string, string> = {
    VOUCH_WRK_THREADS: String(threads),
    VOUCH_WRK_CONNECTIONS: String(connections),
  };
  if (requests !== undefined) env.VOUCH_WRK_REQUESTS = String(requests);
  if (fresh !== undefined) {
    Object.assign(env, {
      VOUCH_WRK_HEADER: fresh.header,
      VOUCH_WRK_FILE: fresh.values.file,
      VOUCH_WRK_OFFSET: String(fresh.values.offset),
    });
  }
  const headers = Object.entries(load.headers).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ]);
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--timeout', TIMEOUT];
  args.push('-s', SCRIPT, ...headers);
  const before = childrenMicros();
  const child = spawn('wrk', [...args, load.url], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let [stdout, stderr] = ['', ''];
  let interrupt: NodeJS.Timeout | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const idle = stdout.split('vouch-wrk idle\n').length - 1;
    // wrk waits out its duration unless interrupted, and ignores SIGINT until its threads run, or
    // sleeps anew if it came just before: sent again until it exits.
    if (idle === threads && interrupt === undefined) {
      interrupt = setInterval(() => child.kill('SIGINT'), 100);
      child.kill('SIGINT');
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject).once('close', resolve);
  }).finally(() => {
    clearInterval(interrupt);
  });
  const cpuMicros = childrenMicros() - before;
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${stderr}${stdout}`);
  const figures = parseWrkOutput(stdout);
  fresh?.values.spend(figures.spent);
  return { ...figures, threads, cpuMicros };
}
