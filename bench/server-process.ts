import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { HookTime } from './hook-timer.js';
import { ask, awaitMessage, cpuTime, forkUnder, type CpuTime } from './ipc.js';

/** The benchmarked server, running in a child process. */
export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  /** The server's CPU time so far, user and system. */
  cpu(): Promise<CpuTime>;
  /** Each route's hook time since the last call (started with `timeHooks` only). */
  hooks(): Promise<Record<string, HookTime>>;
  /** Closes the app and waits for the process to exit (which writes a `--cpu-prof` profile). */
  close(): Promise<void>;
}

interface ServerMessage {
  readonly type: 'listening' | 'cpu';
  readonly port?: number;
  readonly user?: number;
  readonly system?: number;
}

/**
 * Starts `bench/server.ts` with `node --import tsx` in a child process, so that it has an event
 * loop (and, on two cores, a core) of its own, apart from autocannon's.
 *
 * @param execArgv - extra Node options for the server, e.g. `--cpu-prof`.
 * @param options.timeHooks - time each route's `onRequest` hook (`hook-timer.ts`).
 * @param options.launcher - a command node runs under (`['valgrind', '--tool=callgrind']`).
 * @param options.env - variables added to the server's environment.
 */
export async function startServer(
  cwd: string,
  execArgv: readonly string[],
  options: {
    timeHooks?: boolean;
    launcher?: readonly string[];
    env?: Readonly<Record<string, string>>;
  } = {},
): Promise<ServerProcess> {
  const script = fileURLToPath(new URL('./server.ts', import.meta.url));
  const child = forkUnder(options.launcher, ['--import', 'tsx', ...execArgv, script], {
    cwd,
    env: {
      ...process.env,
      ...options.env,
      BENCH_TIME_HOOKS: options.timeHooks === true ? '1' : '0',
    },
    output: ['inherit', 'inherit'],
  });
  const { port } = await awaitMessage<ServerMessage>(child, 'listening');
  if (port === undefined || child.pid === undefined) throw new Error('bench server sent no port');
  return {
    pid: child.pid,
    port,
    cpu: () => cpuTime(child),
    hooks: async () =>
      (await ask<{ type: 'hooks'; times: Record<string, HookTime> }>(child, 'hooks')).times,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

/** One GET over a fresh loopback connection: its status and body. */
export function get(
  port: number,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { ...headers }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
