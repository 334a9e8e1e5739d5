// The service and its CLI as real processes, as `npm start` and `npm run cli` run them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, STARTUP_MS } from '../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A service process: what it printed so far, and ways to stop it. */
export interface ServerProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once standard output matches; rejects if the process ends first or STARTUP_MS pass. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Sends SIGTERM (a graceful shutdown) and waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends SIGKILL: the process dies at once, as on a crash. */
  kill(): Promise<void>;
  stdout(): string;
  stderr(): string;
}

/**
 * `node --import tsx service/server.ts` with only the given environment (and PATH), killed when
 * the test ends if still running.
 */
export function runServer(t: TestContext, env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  t.after(() => {
    if (running()) child.kill('SIGKILL');
  });
  // Its output is complete once its streams have closed.
  let closed = false;
  child.once('close', () => (closed = true));

  return {
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        let late = false;
        const timer = setTimeout(() => {
          late = true;
          check();
        }, STARTUP_MS);
        // Looked at each time it prints, once its output is complete, and after STARTUP_MS.
        function check(): void {
          const match = pattern.exec(stdout);
          if (match === null && !closed && !late) return;
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.off('close', check);
          if (match !== null) resolve(match);
          else {
            const said = `stdout:\n${stdout}\nstderr:\n${stderr}`;
            reject(new Error(`server never printed ${String(pattern)}\n${said}`));
          }
        }
        child.stdout.on('data', check);
        child.on('close', check);
        check();
      });
    },
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** What a service process logs once it listens. */
export const LISTENING = /"msg":"vouch service listening"/;

/** A service process listening on a loopback port. */
export interface Instance {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly server: ServerProcess;
  /** `fetch` relative to {@link base}. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** {@link runServer} with `env` on a free loopback port, once it listens. */
export async function startInstance(t: TestContext, env: NodeJS.ProcessEnv): Promise<Instance> {
  const port = await freePort();
  const server = runServer(t, { ...env, HOST: '127.0.0.1', PORT: String(port) });
  await server.waitFor(LISTENING);
  const base = `http://127.0.0.1:${port}`;
  return { base, server, fetch: (path, init) => fetch(base + path, init) };
}

/** What a CLI command printed, and how it exited. */
export interface CliOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm run -s cli -- …` in its own process, with `input` on standard input. */
export async function runCli(
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  input = '',
): Promise<CliOutcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/cli/run-cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** As {@link runCli}, failing the test unless the command succeeds; its whole output. */
export async function cli(
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  input = '',
): Promise<string> {
  const outcome = await runCli(env, args, input);
  assert.equal(outcome.code, 0, outcome.stdout + outcome.stderr);
  return outcome.stdout + outcome.stderr;
}
