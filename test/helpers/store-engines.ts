// Each engine the service's store runs on, as the shared test suites see it: a fresh database
// per test, stores opened on it, and another connection to look at or change its rows, as the
// CLI or another instance would.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import {
  openPostgresStore,
  type PostgresStoreOptions,
} from '../../service/store/postgres/open-postgres-store.js';
import { connectionConfig } from '../../service/store/postgres/open-pool.js';
import { openSqliteStore } from '../../service/store/sqlite/open-sqlite-store.js';
import type { Store } from '../../service/store/store.js';
import { postgresDatabase } from './services.js';

/** Engine options a test may set: the SQLite busy timeout, the PostgreSQL timeouts. */
export interface EngineOptions extends PostgresStoreOptions {
  readonly busyTimeoutMs?: number;
}

/** A new, empty database of one engine, removed when the test ends. */
export interface TestDatabase {
  /** `sqlite:<file>` or `postgres://…`: what `DATABASE_URL` would say. */
  readonly url: string;
  /** Opens (and migrates) a store on this database; it is closed when the test ends. */
  open(options?: EngineOptions): Promise<Store>;
  /**
   * Runs one SQL statement on a connection of its own, with `$1`, `$2`… placeholders in that
   * order; the rows it returns (bigint columns as numbers).
   */
  sql<Row = Record<string, unknown>>(text: string, ...values: unknown[]): Promise<Row[]>;
}

/** One engine. */
export interface StoreEngine {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** A fresh database, or `undefined` when the engine is unreachable and the test was skipped. */
  create(t: TestContext): Promise<TestDatabase | undefined>;
}

/** Closes what a test opened, last first, in one hook registered before anything else. */
function closer(t: TestContext): (close: () => unknown) => void {
  const closes: (() => unknown)[] = [];
  t.after(async () => {
    for (const close of closes.reverse()) await close();
  });
  return (close) => closes.push(close);
}

const sqlite: StoreEngine = {
  name: 'SQLite',
  create(t) {
    const onEnd = closer(t);
    const dir = mkdtempSync(join(tmpdir(), 'vouch-store-'));
    onEnd(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const file = join(dir, 'vouch.db');
    let peer: Database.Database | undefined;
    return Promise.resolve({
      url: `sqlite:${file}`,
      open(options = {}) {
        const store = openSqliteStore(
          file,
          options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs },
        );
        onEnd(() => store.close());
        return Promise.resolve(store);
      },
      sql<Row>(text: string, ...values: unknown[]) {
        if (peer === undefined) {
          const db = new Database(file);
          peer = db;
          onEnd(() => db.close());
        }
        const statement = peer.prepare(text.replace(/\$\d+/g, '?'));
        if (statement.reader) return Promise.resolve(statement.all(...values) as Row[]);
        statement.run(...values);
        return Promise.resolve([]);
      },
    });
  },
};

const postgres: StoreEngine = {
  name: 'PostgreSQL',
  async create(t) {
    const onEnd = closer(t);
    const database = await postgresDatabase(t);
    if (database === undefined) return undefined;
    let peer: Promise<pg.Client> | undefined;
    return {
      url: database.url,
      async open(options = {}) {
        const store = await openPostgresStore(database.url, options);
        onEnd(() => store.close());
        return store;
      },
      async sql<Row>(text: string, ...values: unknown[]) {
        if (peer === undefined) {
          const client = new pg.Client(connectionConfig(database.url, 5000));
          peer = client.connect().then(() => client);
          onEnd(() => client.end());
        }
        const result = await (await peer).query(text, values);
        return result.rows as Row[];
      },
    };
  },
};

/** Every engine, SQLite first. */
export const storeEngines: readonly StoreEngine[] = [sqlite, postgres];
