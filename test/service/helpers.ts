// The illustrated service on a real socket, over a fresh SQLite file, seeded through the Store
// with real password hashes and real API keys. Nothing is mocked.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { buildApp } from '../../service/app.js';
import type { PurgeSchedule } from '../../service/store/purge-expired.js';
import { loadConfig, type Config } from '../../service/config/config.js';
import { hashPassword, type ScryptParameters } from '../../service/security/passwords.js';
import type { HashGate } from '../../service/security/hash-gate.js';
import type { FailureLimiter } from '../../service/security/rate-limit.js';
import type { RefusalDelay } from '../../service/security/refusal-delay.js';
import { digest, newApiKey, newSecret } from '../../service/security/secrets.js';
import { credentialCache, openStore } from '../../service/store/open-store.js';
import type { Store } from '../../service/store/store.js';

/**
 * Cheap scrypt parameters: checkLogin verifies with the parameters encoded in each hash, so users
 * created with these also verify cheaply. Unknown users still cost OWASP's dummy hash.
 */
export const FAST: ScryptParameters = { N: 2 ** 10, r: 8, p: 1 };

/** A fresh temporary directory, removed when the test ends. */
export async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vouch-service-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A running service and what it runs on. */
export interface Service {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly base: string;
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly config: Config;
  /** The SQLite file; empty when the service runs on the `databaseUrl` it was given. */
  readonly file: string;
  /** `fetch` relative to {@link base}. */
  readonly fetch: (path: string, init?: RequestInit) => Promise<Response>;
}

/** Options of {@link startService}. */
export interface StartOptions {
  /** Environment handed to loadConfig (DATABASE_URL is set to the temporary file). */
  readonly env?: NodeJS.ProcessEnv;
  readonly limiter?: FailureLimiter;
  readonly hashGate?: HashGate;
  readonly refusalDelay?: RefusalDelay;
  readonly now?: () => number;
  readonly logger?: FastifyServerOptions['logger'];
  /** Reuse this SQLite file instead of a new one. */
  readonly file?: string;
  /** Run on this database (a `DATABASE_URL`, e.g. `postgres://…`) instead of a SQLite file. */
  readonly databaseUrl?: string;
  /** The server secret (a fresh one by default). */
  readonly secretKey?: string;
  /** Leave the app and store open at the end of the test (the test closes them itself). */
  readonly keepOpen?: boolean;
  /** When the service purges expired credentials (hourly, a day after, by default). */
  readonly purge?: PurgeSchedule;
}

/**
 * Builds the service over a fresh SQLite file (or the `databaseUrl` given) and listens on a random
 * loopback port; the app and the store are closed when the test ends.
 */
export async function startService(t: TestContext, options: StartOptions = {}): Promise<Service> {
  const onSqlite = options.databaseUrl === undefined;
  const dir =
    onSqlite && options.file === undefined
      ? await mkdtemp(join(tmpdir(), 'vouch-service-'))
      : undefined;
  const file = onSqlite ? (options.file ?? join(dir!, 'vouch.db')) : '';
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ...options.env,
    DATABASE_URL: options.databaseUrl ?? `sqlite:${file}`,
  });
  const store = await openStore(config.databaseUrl, {
    credentialCache: credentialCache(config.credentialCacheMs),
  });
  const app = await buildApp({
    config,
    store,
    secretKey: options.secretKey ?? newSecret(),
    ...(options.limiter === undefined ? {} : { limiter: options.limiter }),
    ...(options.hashGate === undefined ? {} : { hashGate: options.hashGate }),
    ...(options.refusalDelay === undefined ? {} : { refusalDelay: options.refusalDelay }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.purge === undefined ? {} : { purge: options.purge }),
  });
  // One hook, so the file is removed only after the app and the store are closed.
  t.after(async () => {
    if (options.keepOpen !== true) {
      // The test is over: drop keep-alive connections at once. A connection still draining a body
      // the service refused early (401 before the body) is not idle when close() looks, and would
      // otherwise hold close() until the keep-alive timeout (72 s).
      app.server.closeAllConnections();
      await app.close();
      await store.close();
    }
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const base = address.replace(/\/$/, '');
  return {
    base,
    app,
    store,
    config,
    file,
    fetch: (path, init) => fetch(base + path, init),
  };
}

/** Adds a user with a real (cheap) scrypt hash. */
export async function addUser(store: Store, username: string, password: string) {
  return store.createUser(username, await hashPassword(password, FAST), Date.now());
}

/** Adds an application with a real key; returns the key shown once and the record. */
export async function addApplication(store: Store, name: string) {
  const { key, prefix } = newApiKey();
  const record = await store.createApplication(name, prefix, digest(key), Date.now());
  return { key, record };
}

/** A form-encoded body. */
export function form(fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}

/** A JSON body. */
export function json(value: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  };
}

/** `Authorization: Bearer <token>`. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** `Authorization: Basic <base64(username:password)>`. */
export function basic(username: string, password: string): Record<string, string> {
  return {
    authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
  };
}

/** A token from `POST /api/token`; fails the test unless the exchange succeeds. */
export async function getToken(
  service: Pick<Service, 'fetch'>,
  username: string,
  password: string,
): Promise<string> {
  const response = await service.fetch('/api/token', form({ username, password }));
  if (response.status !== 200) {
    throw new Error(`POST /api/token answered ${response.status}: ${await response.text()}`);
  }
  const body = (await response.json()) as { token: string };
  return body.token;
}

/** The cookies a response sets, by name: value and the raw `Set-Cookie` line. */
export function setCookies(response: Response): Map<string, { value: string; line: string }> {
  const cookies = new Map<string, { value: string; line: string }>();
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    cookies.set(pair.slice(0, eq).trim(), { value: pair.slice(eq + 1).trim(), line });
  }
  return cookies;
}

/** A signed-in browser: its cookies, and headers for safe and unsafe requests. */
export interface Session {
  readonly sessionid: string;
  readonly csrftoken: string;
  /** `Cookie: sessionid=…; csrftoken=…`. */
  readonly cookie: string;
}

/** Signs in through `POST /api/auth/login`; fails the test unless it succeeds. */
export async function login(
  service: Service,
  username: string,
  password: string,
  extraHeaders: Record<string, string> = {},
): Promise<Session> {
  const init = form({ username, password });
  const response = await service.fetch('/api/auth/login', {
    ...init,
    headers: { ...(init.headers as Record<string, string>), ...extraHeaders },
  });
  if (response.status !== 200) {
    throw new Error(`POST /api/auth/login answered ${response.status}: ${await response.text()}`);
  }
  const cookies = setCookies(response);
  const sessionid = cookies.get('sessionid')?.value ?? '';
  const csrftoken = cookies.get('csrftoken')?.value ?? '';
  return { sessionid, csrftoken, cookie: `sessionid=${sessionid}; csrftoken=${csrftoken}` };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.now()) {
  let current = start;
  return {
    now: () => current,
    set(ms: number) {
      current = ms;
    },
    advance(ms: number) {
      current += ms;
    },
  };
}
