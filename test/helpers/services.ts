// The PostgreSQL and Redis servers tests (and benchmarks) run against: a fresh PostgreSQL database,
// or a Redis key prefix of its own on the configured logical database, for each test, removed when
// it ends; nothing a test did not create is ever touched. Where a server is unreachable the test
// is skipped with a message saying so, except under CI=true, where it fails.
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The server tests create their PostgreSQL databases on (its `postgres` database). */
export const TEST_POSTGRES_URL =
  process.env.VOUCH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The Redis server, and logical database (0 unless the path names one), tests make keys on. */
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

/** A database, or a Redis key prefix, made for one use, and how to remove it. */
export interface Disposable {
  readonly url: string;
  /** Drops the database (closing its connections), or deletes the keys under the prefix. */
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

/** A key prefix of one's own on the test Redis database: what the service's `REDIS_KEY_PREFIX` takes. */
export interface RedisNamespace extends Disposable {
  /** `<name>:<random>:`; every key made under it, and only those, are deleted by `dispose`. */
  readonly keyPrefix: string;
}

/**
 * A new key prefix `<name>:<random>:` on the test Redis database, for a service, CLI or test to
 * keep its keys (and channel) under. `dispose` deletes the keys that begin with it (SCAN + UNLINK),
 * never anything else: other keys of the database, whoever made them, are left as they are.
 */
export async function createRedisNamespace(name: string): Promise<RedisNamespace> {
  const keyPrefix = `${name}:${randomBytes(6).toString('hex')}:`;
  return {
    url: TEST_REDIS_URL,
    keyPrefix,
    async dispose() {
      const client = redisClient(TEST_REDIS_URL);
      await client.connect();
      try {
        await deleteKeys(client, keyPrefix);
      } finally {
        client.disconnect();
      }
    },
  };
}

/** Deletes every key that begins with `prefix`, a batch of SCAN at a time. */
async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  // SCAN's glob: the prefix is literal.
  const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  for await (const keys of client.scanStream({ match, count: 500 })) {
    const batch = keys as string[];
    if (batch.length > 0) await client.unlink(...batch);
  }
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
 * A key prefix of this test's own on the test Redis database, whose keys are deleted when the test
 * ends: the URL and the prefix, or `undefined` when the test was skipped.
 */
export async function redisNamespace(
  t: TestContext,
): Promise<{ url: string; keyPrefix: string } | undefined> {
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
  const namespace = await createRedisNamespace('vouch-test');
  t.after(() => namespace.dispose());
  return namespace;
}

function redisClient(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
}

/** A URL as messages show it: without its password. */
function describe(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}
