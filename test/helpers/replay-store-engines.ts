// Each DPoP replay store as the shared test suites see it: two instances of a service sharing
// one store (two connections to one SQLite file, two Redis clients, two PostgreSQL pools), a
// store that cannot reach its backend, and, for SQL stores, a look at the rows.
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { memoryReplayStore } from '../../src/dpop/memory-replay-store.js';
import { postgresReplayStore } from '../../src/dpop/postgres-replay-store.js';
import { redisReplayStore } from '../../src/dpop/redis-replay-store.js';
import type { ReplayStore } from '../../src/dpop/replay-store.js';
import type { SqlReplayStoreOptions } from '../../src/dpop/replay-table.js';
import { sqliteReplayStore } from '../../src/dpop/sqlite-replay-store.js';
import { postgresDatabase, redisNamespace } from './services.js';
import { freePort } from './wait.js';

/** Two instances of a service, each with its own connection to the one store. */
export interface ReplayInstances {
  readonly one: ReplayStore;
  readonly other: ReplayStore;
}

/** One kind of replay store. */
export interface ReplayEngine {
  readonly name: string;
  /** Two instances sharing a fresh store, or `undefined` when its server is unreachable (skipped). */
  open(t: TestContext): Promise<ReplayInstances | undefined>;
  /** A store whose backend cannot be reached (none for the memory store, which has none). */
  readonly unreachable?: (t: TestContext) => Promise<ReplayStore>;
}

/** A SQL replay store: instances opened with options, and the rows of its database. */
export interface SqlReplayEngine {
  readonly name: string;
  /** A fresh database, or `undefined` when its server is unreachable (skipped). */
  create(t: TestContext): Promise<SqlReplayDatabase | undefined>;
}

/** A fresh database for SQL replay stores. */
export interface SqlReplayDatabase {
  /** A store (an instance) on this database, with its own connection. */
  store(options?: SqlReplayStoreOptions): ReplayStore;
  /** Runs one statement on a connection of its own, `$1`, `$2`… in order; its rows. */
  sql(text: string, ...values: unknown[]): Promise<Record<string, unknown>[]>;
  /** The names of `table`'s indexes. */
  indexes(table: string): Promise<string[]>;
}

/** Random text for keys and names, so that nothing one test makes meets another's. */
export function randomKey(): string {
  return crypto.randomUUID();
}

/**
 * A SQLite file in a fresh folder, and connections to it (WAL, no driver busy timeout), closed
 * with the folder removed when the test ends.
 */
export function sqliteFile(t: TestContext): { file: string; connect: () => Database.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-replay-'));
  const connections: Database.Database[] = [];
  t.after(() => {
    for (const db of connections) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'replay.db');
  return {
    file,
    connect() {
      // No driver busy timeout: a locked database is the store's to wait for.
      const db = new Database(file, { timeout: 0 });
      db.pragma('journal_mode = WAL');
      connections.push(db);
      return db;
    },
  };
}

const sqliteSql: SqlReplayEngine = {
  name: 'SQLite',
  create(t) {
    const { connect } = sqliteFile(t);
    let peer: Database.Database | undefined;
    const sql = (text: string, ...values: unknown[]) => {
      peer ??= connect();
      const statement = peer.prepare(text.replace(/\$\d+/g, '?'));
      if (statement.reader) {
        return Promise.resolve(statement.all(...values) as Record<string, unknown>[]);
      }
      statement.run(...values);
      return Promise.resolve([]);
    };
    return Promise.resolve({
      store: (options) => sqliteReplayStore(connect(), options),
      sql,
      indexes: async (table) =>
        (
          await sql(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = $1`, table)
        ).map((row) => String(row['name'])),
    });
  },
};

const postgresSql: SqlReplayEngine = {
  name: 'PostgreSQL',
  async create(t) {
    const pools: pg.Pool[] = [];
    // Registered before the database's own hook, so that the pools end before it is dropped.
    t.after(() => Promise.all(pools.map((pool) => pool.end())));
    const database = await postgresDatabase(t);
    if (database === undefined) return undefined;
    const pool = () => {
      const made = new pg.Pool({ connectionString: database.url, max: 4 });
      made.on('error', () => {});
      pools.push(made);
      return made;
    };
    let peer: pg.Pool | undefined;
    const sql = async (text: string, ...values: unknown[]) => {
      peer ??= pool();
      return (await peer.query(text, values)).rows as Record<string, unknown>[];
    };
    return {
      store: (options) => postgresReplayStore(pool(), options),
      sql,
      indexes: async (table) =>
        (await sql(`SELECT indexname FROM pg_indexes WHERE tablename = $1`, table)).map((row) =>
          String(row['indexname']),
        ),
    };
  },
};

/** Every SQL replay store, SQLite first. */
export const sqlReplayEngines: readonly SqlReplayEngine[] = [sqliteSql, postgresSql];

/** A SQL engine as a replay engine: two stores on one fresh database. */
function fromSql(
  engine: SqlReplayEngine,
  unreachable: (t: TestContext) => Promise<ReplayStore>,
): ReplayEngine {
  return {
    name: engine.name,
    async open(t) {
      const database = await engine.create(t);
      return database && { one: database.store(), other: database.store() };
    },
    unreachable,
  };
}

/** An ioredis client that fails at once when Redis is down, as a service's should. */
function redisClient(t: TestContext, url: string): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // A refused connection is reported here too; the command that meets it says so.
  client.on('error', () => {});
  t.after(() => {
    client.disconnect();
  });
  return client;
}

/** Every replay store the library offers, memory first. */
export const replayEngines: readonly ReplayEngine[] = [
  {
    name: 'memory',
    open() {
      // One process's memory: its "instances" can only be the one store.
      const store = memoryReplayStore();
      return Promise.resolve({ one: store, other: store });
    },
  },
  fromSql(sqliteSql, (t) => {
    const db = sqliteFile(t).connect();
    db.close();
    return Promise.resolve(sqliteReplayStore(db));
  }),
  {
    name: 'Redis',
    async open(t) {
      const namespace = await redisNamespace(t);
      if (namespace === undefined) return undefined;
      const store = () =>
        redisReplayStore(redisClient(t, namespace.url), { prefix: namespace.keyPrefix });
      return { one: store(), other: store() };
    },
    async unreachable(t) {
      return redisReplayStore(redisClient(t, `redis://127.0.0.1:${await freePort()}`));
    },
  },
  fromSql(postgresSql, async (t) => {
    const pool = new pg.Pool({
      connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/test`,
    });
    t.after(() => pool.end());
    return postgresReplayStore(pool);
  }),
];
