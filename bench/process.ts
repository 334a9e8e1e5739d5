// A benchmarked server in a process of its own, with bench/probe.ts loaded so that it reports
// its own CPU time and memory over IPC; started on a free loopback port, ready once it answers.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/wait.js';

/** The repository root. */
export const repo = fileURLToPath(new URL('..', import.meta.url));

/** A benchmarked server: its pid, port, CPU time so far (µs) and memory after a full collection. */
export type ServerProcess = Awaited<ReturnType<typeof startServer>>;

function ask<T>(child: ChildProcess, type: 'cpu' | 'memory'): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T & { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage).off('exit', reject);
      resolve(message);
    };
    child.on('message', onMessage).once('exit', reject);
    child.send({ type });
  });
}

/**
 * Starts `node --import tsx <script> <args>` with the probe, `PORT` set in its environment
 * beside `env`, and waits until `GET readyPath` answers 2xx (at most 30 s).
 */
export async function startServer(
  script: string,
  options: {
    args?: readonly string[];
    env?: Readonly<Record<string, string>>;
    readyPath: string;
  },
) {
  const port = await freePort();
  const probe = fileURLToPath(new URL('./probe.ts', import.meta.url));
  const child = fork(script, options.args ?? [], {
    cwd: repo,
    env: { ...process.env, ...options.env, PORT: String(port) },
    execArgv: ['--import', 'tsx', '--expose-gc', '--import', probe],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}${options.readyPath}`;
  const ready = () =>
    fetch(url)
      .then((response) => response.ok)
      .catch(() => false);
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${script} did not start: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not answer in time: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: child.pid!,
    port,
    cpu: () => ask<NodeJS.CpuUsage>(child, 'cpu'),
    memory: () => ask<NodeJS.MemoryUsage>(child, 'memory'),
    /** Stops it with SIGTERM (the service's graceful shutdown) and waits for it to exit. */
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
