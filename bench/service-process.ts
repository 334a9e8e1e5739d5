// The illustrated service as the load benchmark drives it: a fresh SQLite database in a temporary
// folder, a user and an application key made with the service's own CLI, the real server process
// (service/server.ts) started on a free loopback port, and a real token and session obtained over
// HTTP. Nothing is seeded behind the service's back.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ask, cpuTime, forkUnder, type CpuTime } from './ipc.js';
import { claimRedisDatabase, createPostgresDatabase } from '../test/helpers/services.js';
import { freePort } from '../test/helpers/wait.js';
import { repo } from './machine.js';

const BENCH_USER = 'bench';
const BENCH_APPLICATION = 'bench-app';

/** The credentials a benchmark sends, all real and all from the service itself. */
export interface ServiceCredentials {
  readonly token: string;
  readonly apiKey: string;
  readonly sessionId: string;
}

/** A running service process. */
export interface ServiceProcess {
  readonly pid: number;
  readonly port: number;
  /** The service's CPU time so far, user and system. */
  cpu(): Promise<CpuTime>;
  /** The service's memory after a full garbage collection. */
  memory(): Promise<MemorySample>;
  /** Stops the service with SIGTERM (its graceful shutdown) and waits for it to exit. */
  close(): Promise<void>;
}

/** `process.memoryUsage()` of the service, taken after a full collection. */
export interface MemorySample {
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/** Where the benchmarked service keeps its data. */
export type BenchStore = 'sqlite' | 'postgres' | 'postgres+redis';

/** The service's data, fresh and empty; `remove()` deletes it. */
export interface Workspace {
  /** `DATABASE_URL`, and `REDIS_URL` when Redis is used: what the service and its CLI are given. */
  readonly env: Readonly<Record<string, string>>;
  remove(): Promise<void>;
}

/**
 * Fresh storage holding nothing yet, which the service creates and migrates: a SQLite file in a
 * temporary folder, or a new PostgreSQL database (and a Redis logical database of its own) on the
 * servers the tests use (`VOUCH_TEST_POSTGRES_URL`, `VOUCH_TEST_REDIS_URL`).
 */
export async function workspace(store: BenchStore = 'sqlite'): Promise<Workspace> {
  if (store === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'vouch-bench-'));
    return {
      env: { DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}` },
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const database = await createPostgresDatabase('vouch_bench');
  // Claimed from the top, away from the tests' claims from the bottom.
  const redis = store === 'postgres+redis' ? await claimRedisDatabase([15, 14, 13]) : undefined;
  return {
    env: { DATABASE_URL: database.url, ...(redis === undefined ? {} : { REDIS_URL: redis.url }) },
    async remove() {
      await database.dispose();
      await redis?.dispose();
    },
  };
}

interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the service's CLI (`npm run -s cli -- …` without npm) against the workspace. */
function cli(storage: Workspace['env'], args: readonly string[], input = ''): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'service/cli.ts', ...args], {
      cwd: repo,
      env: { ...process.env, ...storage },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** Adds the benchmark's user and application with the CLI; returns the password and the key. */
export async function seed(
  storage: Workspace['env'],
): Promise<{ password: string; apiKey: string }> {
  const password = `bench-${Math.random().toString(36).slice(2)}-password`;
  const user = await cli(storage, ['user', 'add', BENCH_USER], `${password}\n`);
  if (user.code !== 0) throw new Error(`cli user add failed (${user.code}): ${user.stderr}`);
  const key = await cli(storage, ['key', 'add', BENCH_APPLICATION]);
  if (key.code !== 0) throw new Error(`cli key add failed (${key.code}): ${key.stderr}`);
  // The key is alone on the last line of standard output.
  const apiKey = key.stdout.trimEnd().split('\n').at(-1) ?? '';
  if (!apiKey.startsWith('vk_')) throw new Error(`cli key add printed no key: ${key.stdout}`);
  return { password, apiKey };
}

interface ProbeReply extends Partial<MemorySample> {
  readonly type: 'cpu' | 'memory';
  readonly user?: number;
  readonly system?: number;
  readonly collected?: boolean;
}

/** Options of {@link startService}. */
export interface StartServiceOptions {
  /** The service's LOG_LEVEL (default `warn`: request logs would be timed as well). */
  readonly logLevel?: string;
  /** The service's CREDENTIAL_CACHE_SECONDS (default: the service's own default). */
  readonly credentialCache?: string | undefined;
  /** Where the service's own output goes (default: discarded). */
  readonly output?: 'inherit' | 'ignore';
  /**
   * A command the service's `node` runs under, with its arguments (`['valgrind',
   * '--tool=callgrind']`); the process keeps its pid. Default: none.
   */
  readonly launcher?: readonly string[];
  /** Node options given before the service's own (default: none). */
  readonly nodeOptions?: readonly string[];
  /** How long the service may take to answer its first request (default 30 s). */
  readonly startTimeoutMs?: number;
}

/**
 * Starts `service/server.ts` as `npm start` does, with the probe preloaded for CPU and memory
 * figures, and waits until it answers.
 */
export async function startService(
  storage: Workspace['env'],
  options: StartServiceOptions = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const output = options.output ?? 'ignore';
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const nodeArgs = [
    ...(options.nodeOptions ?? []),
    '--import',
    'tsx',
    '--expose-gc',
    ...(process.env.BENCH_SERVICE_NODE_OPTIONS?.split(' ') ?? []),
    '--import',
    fileURLToPath(new URL('./service-probe.ts', import.meta.url)),
    join(repo, 'service', 'server.ts'),
  ];
  const child = forkUnder(options.launcher, nodeArgs, {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...storage,
      LOG_LEVEL: options.logLevel ?? 'warn',
      ...(options.credentialCache === undefined
        ? {}
        : { CREDENTIAL_CACHE_SECONDS: options.credentialCache }),
    },
    output: [output, output === 'ignore' ? 'pipe' : 'inherit'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service did not start: ${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/api/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not answer within ${startTimeoutMs / 1000} s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child.pid === undefined) throw new Error('the service has no pid');
  return {
    pid: child.pid,
    port,
    cpu: () => cpuTime(child),
    async memory() {
      const reply = await ask<ProbeReply>(child, 'memory');
      if (reply.collected !== true) throw new Error('the service was started without --expose-gc');
      const { heapUsed = 0, heapTotal = 0, rss = 0, external = 0, arrayBuffers = 0 } = reply;
      return { heapUsed, heapTotal, rss, external, arrayBuffers };
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Signs in over HTTP as the benchmark user: a Bearer token and a session id. */
export async function signIn(
  port: number,
  password: string,
): Promise<{ token: string; sessionId: string }> {
  const base = `http://127.0.0.1:${port}`;
  const body = new URLSearchParams({ username: BENCH_USER, password }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const tokenResponse = await fetch(`${base}/api/token`, { method: 'POST', headers, body });
  if (tokenResponse.status !== 200) {
    throw new Error(`POST /api/token answered ${tokenResponse.status}`);
  }
  const { token } = (await tokenResponse.json()) as { token: string };
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers, body });
  if (login.status !== 200) throw new Error(`POST /api/auth/login answered ${login.status}`);
  const session = login.headers
    .getSetCookie()
    .map((cookie) => /^sessionid=([^;]+)/.exec(cookie)?.[1])
    .find((value) => value !== undefined);
  if (session === undefined) throw new Error('POST /api/auth/login set no sessionid cookie');
  return { token, sessionId: session };
}
