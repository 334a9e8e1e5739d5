// The illustrated service as bench:service and bench:flood drive it, with credentials it issued
// itself: nothing is seeded behind its back.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../service/store/open-store.js';
import { createPostgresDatabase, createRedisNamespace } from '../test/helpers/services.js';
import type { Shot } from './load.js';
import { repo, startServer, type ServerProcess } from './process.js';
import type { Target } from './report.js';

const CLI = join(repo, 'service', 'cli', 'run-cli.ts');
const SERVER = join(repo, 'service', 'server.ts');
const USER = 'bench';

/** Where the service keeps its data. */
export type BenchStore = 'sqlite' | 'postgres' | 'postgres+redis';

/**
 * The timed routes, baseline first (no authentication, no store access): part of each answer, and
 * the header of its credential.
 */
const routes = [
  { path: '/api/version', body: '"name":"vouch"' },
  { path: '/api/health', body: '"status":"ok"' },
  { path: '/api/bearer', body: '"token":', credential: 'authorization' },
  { path: '/api/headerkey', body: 'Hello, bench-app', credential: 'x-api-key' },
  { path: '/api/pets', body: 'Pets of bench', credential: 'cookie' },
  { path: '/api/basic', body: '"httpuser":"bench"', credential: 'authorization' },
];

/** The service's `/api/version` on bare Fastify: the ceiling of what the service adds. */
export const BARE_LABEL = 'bare Fastify /api/version';

/**
 * What bench:service judges (issue #30), round by round: each authenticated route against the
 * baseline `/api/version` of the same service, which neither authenticates nor reads the store;
 * Basic (remembered after its first check) against Bearer; the baseline against the same route on
 * bare Fastify. `/api/health` is no ceiling: it pings the store.
 */
export function serviceTargets(
  shots: readonly Shot[],
  bare: Shot,
): (Target & { first: Shot; second: Shot })[] {
  const [version] = shots;
  const of = (path: string) => shots.find((shot) => shot.path === path)!;
  if (version?.path !== '/api/version') throw new Error('the baseline is /api/version');
  return [
    { first: of('/api/bearer'), second: version, times: 0.9 },
    { first: of('/api/headerkey'), second: version, times: 0.9 },
    { first: of('/api/pets'), second: version },
    { first: of('/api/basic'), second: of('/api/bearer'), times: 0.8 },
    { first: version, second: bare, times: 0.95 },
  ];
}

/**
 * A client sending `shot` once every `everyMs`, as a client in steady use does, until stopped:
 * `/api/basic`'s login then stays remembered between the timed runs (renewed before it would be
 * forgotten), where each run would otherwise begin with a password check after the gap since the
 * last. `stop()` tells how many it sent and how many were not answered 200.
 */
export function steadyClient(port: number, shot: Shot, everyMs = 1000) {
  let sent = 0;
  let failed = 0;
  let last: Promise<void> = Promise.resolve();
  const send = async () => {
    sent += 1;
    try {
      const response = await fetch(`http://127.0.0.1:${port}${shot.path}`, {
        headers: shot.headers,
      });
      if (response.status !== 200) failed += 1;
      await response.arrayBuffer();
    } catch {
      failed += 1;
    }
  };
  const timer = setInterval(() => {
    last = last.then(send);
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await last;
      return { sent, failed };
    },
  };
}

/** The service's `/api/version` route alone on a bare Fastify, in a process of its own. */
export async function launchBare(): Promise<{ server: ServerProcess; shot: Shot }> {
  const server = await startServer(join(repo, 'bench', 'server.ts'), {
    args: ['bare'],
    readyPath: '/api/version',
  });
  const version = routes[0]!;
  return { server, shot: { ...version, label: BARE_LABEL, headers: {} } };
}

/**
 * Fresh storage: a SQLite file in a temporary folder, created as the service's first start creates
 * it (the CLI refuses a database that does not exist), or a PostgreSQL database (and a Redis key
 * prefix) of its own on the servers the tests use.
 */
async function workspace(store: BenchStore) {
  if (store === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'vouch-bench-'));
    const env: Record<string, string> = { DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}` };
    await (await openStore(env.DATABASE_URL!, { credentialCache: false })).close();
    return { env, remove: () => rm(dir, { recursive: true, force: true }) };
  }
  const database = await createPostgresDatabase('vouch_bench');
  const redis = store === 'postgres+redis' ? await createRedisNamespace('vouch-bench') : undefined;
  const env: Record<string, string> = { DATABASE_URL: database.url };
  if (redis !== undefined) {
    env.REDIS_URL = redis.url;
    env.REDIS_KEY_PREFIX = redis.keyPrefix;
  }
  const remove = async () => {
    await database.dispose();
    await redis?.dispose();
  };
  return { env, remove };
}

/**
 * The service over fresh `store` as `npm start` runs it, with `env`: a user and a key made with its
 * CLI, a token and a session from signing in. Every shot carries every credential, the baseline's
 * too, so that only what a route does with them differs. `stop()` also deletes the storage.
 */
export async function launch(store: BenchStore, env: Readonly<Record<string, string>> = {}) {
  const space = await workspace(store);
  const stops = [space.remove];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    const cli = (args: string[], input = '') =>
      execFileSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
        cwd: repo,
        env: { ...process.env, ...space.env },
        input,
        encoding: 'utf8',
      });
    const password = `bench-${Math.random().toString(36).slice(2)}-password`;
    cli(['user', 'add', USER], `${password}\n`);
    // The key is alone on the last line.
    const apiKey = cli(['key', 'add', 'bench-app']).trimEnd().split('\n').at(-1) ?? '';
    const service = await startServer(SERVER, {
      env: { NODE_ENV: 'development', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...space.env, ...env },
      readyPath: '/api/version',
    });
    stops.push(() => service.close());
    const base = `http://127.0.0.1:${service.port}`;
    const form = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: USER, password }).toString(),
    };
    const issued = await fetch(`${base}/api/token`, form);
    const { token } = (await issued.json()) as { token: string };
    const login = await fetch(`${base}/api/auth/login`, form);
    const sessionId = /^sessionid=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1];
    if (!apiKey.startsWith('vk_') || sessionId === undefined || issued.status !== 200) {
      throw new Error(`no key (${apiKey}), token (${issued.status}) or session (${login.status})`);
    }
    const headers = {
      authorization: `Bearer ${token}`,
      'x-api-key': apiKey,
      cookie: `sessionid=${sessionId}`,
    };
    const basic = `Basic ${Buffer.from(`${USER}:${password}`).toString('base64')}`;
    const shots = routes.map((route): Shot => ({
      ...route,
      label: route.path,
      headers: route.path === '/api/basic' ? { ...headers, authorization: basic } : headers,
    }));
    return { service, env: space.env, shots, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
