// The clients of bench:flood. The flood runs here (autocannon, in the bench's own process); the
// readers the flood must not slow down run in a process of their own (flood-readers.ts), so that
// the flood's client never delays their clocks.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A sign-in, or any answer, is late past this: the target. */
export const ANSWER_WITHIN_MS = 2000;

/** A process's resident memory now, bytes, from the kernel: no collection, no IPC. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/** How many answers, their p99 and the slowest, ms. */
export interface Latencies {
  readonly count: number;
  readonly p99: number;
  readonly max: number;
}

/** {@link Latencies} of these answer times. */
export function latencies(ms: readonly number[]): Latencies {
  const sorted = ms.toSorted((a, b) => a - b);
  const rank = Math.max(0, Math.ceil(sorted.length * 0.99) - 1);
  return { count: sorted.length, p99: sorted[rank] ?? 0, max: sorted.at(-1) ?? 0 };
}

/**
 * The n-th sign-in of the flood: each another username from another address (the service trusts
 * X-Forwarded-For from loopback here), so that no failed sign-in limit holds it back and each is
 * worth a real scrypt check.
 */
export function floodSignIn(n: number) {
  const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  return {
    method: 'POST' as const,
    path: '/api/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: `username=flood-${n}&password=guess`,
  };
}

/** Before any timing: a sign-in of the flood is refused as a wrong password, 400, as if real. */
export async function checkFloodSignIn(port: number): Promise<void> {
  const { path, ...init } = floodSignIn(1 << 24);
  const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
  const body = await response.text();
  if (response.status !== 400 || !body.includes('Incorrect username or password')) {
    throw new Error(`a flood sign-in answered ${response.status} ${body}, not 400`);
  }
}

/** What the flood's sign-ins got. */
export interface FloodReport {
  /** Answers by status. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly answers: Latencies;
  /** Answered, but later than {@link ANSWER_WITHIN_MS}. */
  readonly late: number;
  /** Unanswered at the end of the run, sent longer than {@link ANSWER_WITHIN_MS} before it. */
  readonly unanswered: number;
}

/**
 * `connections` keep-alive connections sending sign-ins for `seconds`, each the next as soon as
 * the last is answered, as a client ignoring `Retry-After` does. Throws if a socket fails.
 */
export async function flood(
  port: number,
  connections: number,
  seconds: number,
): Promise<FloodReport> {
  let n = 0;
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  // Each connection's request under way was sent when its last was answered (or at the start).
  const started = performance.now();
  const answered = new Map<object, number>();
  let unanswered = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        // No connection is dropped and opened again within the run: a slow answer is waited for.
        timeout: seconds + 5,
        requests: [{ setupRequest: (request) => ({ ...request, ...floodSignIn(++n) }) }],
      },
      (error: Error | null, done) => {
        if (error !== null) reject(error);
        else resolve(done);
      },
    );
    instance.on('response', (client, status, _bytes, ms) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      times.push(ms);
      answered.set(client, performance.now());
    });
    // At the end of the run, before autocannon closes the connections: who still waits, since when.
    setTimeout(() => {
      const now = performance.now();
      const waiting = [...answered.values()].filter((at) => now - at > ANSWER_WITHIN_MS).length;
      // A connection never answered has waited since the start.
      const never = now - started > ANSWER_WITHIN_MS ? connections - answered.size : 0;
      unanswered = waiting + never;
    }, seconds * 1000);
  });
  if (result.errors > 0) throw new Error(`the flood: ${result.errors} sockets failed`);
  const late = times.filter((ms) => ms > ANSWER_WITHIN_MS).length;
  return { statuses, answers: latencies(times), late, unanswered };
}

/** What the readers report (flood-readers.ts). */
export interface ReadersReport {
  /** One request every 2 ms over 10 keep-alive connections. */
  readonly keepAlive: Latencies;
  /** One request every 20 ms, each on a new connection. */
  readonly newConnection: Latencies;
  /** Every answer's status, both readers'. */
  readonly statuses: Readonly<Record<string, number>>;
  /** The service's peak resident memory, bytes, sampled every 20 ms. */
  readonly peakRss: number;
}

/**
 * The readers of `path` with `headers`, for `seconds` a run, in a process of their own: resolves
 * once they are loaded, to `run()`, which runs them and resolves to their report, and `close()`.
 */
export async function readers(options: {
  readonly port: number;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly seconds: number;
  /** The service's process, whose memory is sampled. */
  readonly pid: number;
}): Promise<{ run(): Promise<ReadersReport>; close(): void }> {
  const script = fileURLToPath(new URL('./flood-readers.ts', import.meta.url));
  const child = fork(script, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'] });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) => {
      reject(new Error(`the readers exited (${code}) with no report`));
    });
  });
  const next = <T>() =>
    Promise.race([new Promise<T>((resolve) => child.once('message', resolve)), exited]);
  await next<'ready'>();
  return {
    run() {
      const report = next<ReadersReport>();
      child.send('go');
      return report;
    },
    close: () => {
      child.disconnect();
    },
  };
}
