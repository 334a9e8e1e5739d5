// The illustrated service as bench:service and bench:flood drive it: fresh storage, a user and an
// application key made with the service's own CLI, the real server (as `npm start` runs it) on a
// free loopback port, and a real token and session obtained over HTTP. Nothing is seeded behind
// the service's back.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimRedisDatabase, createPostgresDatabase } from '../test/helpers/services.js';
import type { Shot } from './load.js';
import { repo, startServer, type ServerProcess } from './process.js';

const CLI = join(repo, 'service', 'cli.ts');
const SERVER = join(repo, 'service', 'server.ts');
const USER = 'bench';

/** Where the service keeps its data. */
export type BenchStore = 'sqlite' | 'postgres' | 'postgres+redis';

/** The credentials a benchmark sends, all issued by the service itself. */
export interface ServiceCredentials {
  readonly token: string;
  readonly apiKey: string;
  readonly sessionId: string;
}

/** A timed route: its request, what its body contains, the header of its credential. */
export interface ServiceRoute {
  readonly path: string;
  readonly body: string;
  readonly credential?: string;
}

/** The routes, baseline first: no authentication and no store access. */
export const serviceRoutes: readonly ServiceRoute[] = [
  { path: '/api/version', body: '"name":"vouch"' },
  { path: '/api/health', body: '"status":"ok"' },
  { path: '/api/bearer', body: '"token":', credential: 'authorization' },
  { path: '/api/headerkey', body: 'Hello, bench-app', credential: 'x-api-key' },
  { path: '/api/pets', body: 'Pets of bench', credential: 'cookie' },
];

/**
 * A route's timed request. Every request carries every credential, the baseline's too: request
 * sizes and header parsing are the same everywhere, and only what a route does with them differs.
 */
export function shotOf(route: ServiceRoute, credentials: ServiceCredentials): Shot {
  return {
    label: route.path,
    path: route.path,
    headers: {
      authorization: `Bearer ${credentials.token}`,
      'x-api-key': credentials.apiKey,
      cookie: `sessionid=${credentials.sessionId}`,
    },
  };
}

/**
 * Fresh storage, which the service creates and migrates: a SQLite file in a temporary folder,
 * or a new PostgreSQL database (and a Redis logical database of its own) on the servers the
 * tests use (`VOUCH_TEST_POSTGRES_URL`, `VOUCH_TEST_REDIS_URL`). `remove()` deletes it.
 */
export async function workspace(store: BenchStore = 'sqlite') {
  if (store === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'vouch-bench-'));
    return {
      env: { DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}` } as Record<string, string>,
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const database = await createPostgresDatabase('vouch_bench');
  // Claimed from the top, away from the tests' claims from the bottom.
  const redis = store === 'postgres+redis' ? await claimRedisDatabase([15, 14, 13]) : undefined;
  return {
    env: { DATABASE_URL: database.url, ...(redis && { REDIS_URL: redis.url }) } as Record<
      string,
      string
    >,
    async remove() {
      await database.dispose();
      await redis?.dispose();
    },
  };
}

/** Runs the service's CLI against the storage; its standard output, or throws. */
function cli(env: Record<string, string>, args: readonly string[], input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: repo,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`cli ${args.join(' ')} failed (${code}): ${stderr}`));
    });
    child.stdin.end(input);
  });
}

/** Adds the benchmark's user and application with the CLI: the password and the key. */
export async function seed(env: Record<string, string>) {
  const password = `bench-${Math.random().toString(36).slice(2)}-password`;
  await cli(env, ['user', 'add', USER], `${password}\n`);
  // The key is alone on the last line.
  const apiKey = (await cli(env, ['key', 'add', 'bench-app'])).trimEnd().split('\n').at(-1) ?? '';
  if (!apiKey.startsWith('vk_')) throw new Error(`cli key add printed no key: ${apiKey}`);
  return { password, apiKey };
}

/** Starts the service as `npm start` does, in development mode on loopback. */
export function startService(env: Record<string, string>): Promise<ServerProcess> {
  return startServer(SERVER, {
    env: { NODE_ENV: 'development', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    readyPath: '/api/version',
  });
}

/** Signs in over HTTP as the benchmark user: a Bearer token and a session id. */
export async function signIn(port: number, password: string) {
  const base = `http://127.0.0.1:${port}`;
  const request = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: USER, password }).toString(),
  };
  const issued = await fetch(`${base}/api/token`, request);
  if (issued.status !== 200) throw new Error(`POST /api/token answered ${issued.status}`);
  const { token } = (await issued.json()) as { token: string };
  const login = await fetch(`${base}/api/auth/login`, request);
  const sessionId = login.headers
    .getSetCookie()
    .map((cookie) => /^sessionid=([^;]+)/.exec(cookie)?.[1])
    .find((value) => value !== undefined);
  if (sessionId === undefined) throw new Error(`POST /api/auth/login answered ${login.status}`);
  return { token, sessionId };
}
