// The PostgreSQL and Redis servers tests (and benchmarks) run against: a fresh database, or a
// Redis logical database of its own, for each test, removed when it ends. Where a server is
// unreachable the test is skipped with a message saying so, except under CI=true, where it fails.
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The server tests create their PostgreSQL databases on (its `postgres` database). */
export const TEST_POSTGRES_URL =
  process.env.VOUCH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The Redis server tests claim logical databases on. */
export const TEST_REDIS_URL = process.env.VOUCH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const CI = process.env.CI === 'true';

let postgresReachable: Promise<string | undefined> | undefined;
let redisReachable: Promise<string | undefined> | undefined;

/** `undefined` when reachable, or why not. */
function probe(connect: () => Promise<void>): Promise<string | undefined> {
  return connect().then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
}

/** Skips the test (or fails it under CI=true) when the server is unreachable; says whether to go on. */
async function available(t: TestContext, what: string, problem: string | undefined) {
  if (problem === undefined) return true;
  const message = `${what} is not reachable (${problem})`;
  if (CI) throw new Error(`${message}; CI=true requires it`);
  t.skip(`${message}; start it to run this test`);
  return false;
}

async function admin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: TEST_POSTGRES_URL,
    connectionTimeoutMillis: 2000,
  });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Runs SQL as the test server's administrator (on its `postgres` database). */
export function asAdmin(sql: string): Promise<void> {
  return admin(async (client) => {
    await client.query(sql);
  });
}

/** A database or Redis logical database made for one use, and how to remove it. */
export interface Disposable {
  readonly url: string;
  /** Drops the database (closing its connections), or empties the Redis database. */
  dispose(): Promise<void>;
}

/** Creates an empty PostgreSQL database named `<prefix>_<random>` on the test server. */
export async function createPostgresDatabase(
  prefix: string,
): Promise<Disposable & { readonly name: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    dispose: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * Claims a Redis logical database of the test server that no one else holds, trying `order`
 * (1–15 by default), so that concurrent users never share one.
 */
export async function claimRedisDatabase(
  order: readonly number[] = Array.from({ length: 15 }, (_, i) => i + 1),
): Promise<Disposable> {
  const claim = randomBytes(8).toString('hex');
  for (const db of order) {
    const url = withDatabase(TEST_REDIS_URL, db);
    const client = redisClient(url);
    await client.connect();
    const claimed = await client.set('vouch-test-claim', claim, 'EX', 3600, 'NX');
    if (claimed === 'OK') {
      return {
        url,
        async dispose() {
          await client.flushdb();
          client.disconnect();
        },
      };
    }
    client.disconnect();
  }
  throw new Error(`every Redis logical database of ${order.join(', ')} is claimed`);
}

/**
 * A new, empty PostgreSQL database for this test, dropped (its connections closed) when the test
 * ends: its URL and name, or `undefined` when the test was skipped.
 */
export async function postgresDatabase(
  t: TestContext,
): Promise<{ url: string; name: string } | undefined> {
  postgresReachable ??= probe(() =>
    admin(async (client) => {
      await client.query('SELECT 1');
    }),
  );
  if (
    !(await available(t, `PostgreSQL at ${describe(TEST_POSTGRES_URL)}`, await postgresReachable))
  ) {
    return undefined;
  }
  const database = await createPostgresDatabase('vouch_test');
  t.after(() => database.dispose());
  return database;
}

/**
 * A Redis logical database of this test's own (claimed among 1–15, so that concurrent tests never
 * share one), emptied when the test ends: its URL, or `undefined` when the test was skipped.
 */
export async function redisDatabase(t: TestContext): Promise<string | undefined> {
  redisReachable ??= probe(async () => {
    const client = redisClient(TEST_REDIS_URL);
    try {
      await client.connect();
      await client.ping();
    } finally {
      client.disconnect();
    }
  });
  if (!(await available(t, `Redis at ${describe(TEST_REDIS_URL)}`, await redisReachable))) {
    return undefined;
  }
  const database = await claimRedisDatabase();
  t.after(() => database.dispose());
  return database.url;
}

function redisClient(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
}

function withDatabase(url: string, db: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${db}`;
  return parsed.toString();
}

/** A URL as messages show it: without its password. */
function describe(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}
