// What only the PostgreSQL engine has: migrations under an advisory lock, timeouts, outages and
// recovery, and the listening connection. Each test on a database of its own on the real server.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import pg from 'pg';
import { StoreUnavailableError } from 'vouch';
import { asAdmin, postgresDatabase, TEST_POSTGRES_URL } from '../../../test/helpers/services.js';
import { tcpProxy } from '../../../test/helpers/tcp-proxy.js';
import { storeEngines } from '../../../test/helpers/store-engines.js';
import { migrations, type Migration } from '../migrations.js';
import { openPostgresStore } from './open-postgres-store.js';
import { migratePostgres, schemaVersion } from './migrate.js';
import { openPool } from './open-pool.js';
import { LISTENER_NAME } from './listen-for-changes.js';
import { toStoreError } from './to-store-error.js';
import type { CredentialChange } from '../store.js';
import { until, freePort } from '../../../test/helpers/wait.js';
import { MigrationError } from '../../errors.js';

const postgres = storeEngines.find((engine) => engine.name === 'PostgreSQL')!;

/** A pool on a fresh database, ended when the test ends; `undefined` when skipped. */
async function pool(t: TestContext) {
  const database = await postgresDatabase(t);
  if (database === undefined) return undefined;
  const opened = openPool(database.url, { timeoutMs: 2000 });
  t.after(() => opened.end());
  return { ...database, pool: opened };
}

async function tables(client: pg.Pool): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  return result.rows.map((row) => row.name);
}

test('a new database gets every table, its triggers and the latest version', async (t) => {
  const opened = await pool(t);
  if (opened === undefined) return;
  assert.equal(await migratePostgres(opened.pool), migrations.length);
  assert.deepEqual(await tables(opened.pool), [
    'application_scopes',
    'applications',
    'login_failures',
    'schema_migrations',
    'sessions',
    'settings',
    'tokens',
    'user_scopes',
    'users',
  ]);
  const triggers = await opened.pool.query<{ name: string }>(
    'SELECT DISTINCT trigger_name AS name FROM information_schema.triggers ORDER BY 1',
  );
  assert.deepEqual(
    triggers.rows.map((row) => row.name),
    [
      'application_scopes_changed',
      'applications_changed',
      'sessions_deleted',
      'tokens_revoked',
      'user_scopes_changed',
      'users_changed',
    ],
  );
  assert.equal(await schemaVersion(opened.pool), migrations.length);
  assert.equal(await migratePostgres(opened.pool), migrations.length, 'migrating again is a no-op');
});

test('instances starting together migrate once, under the advisory lock', async (t) => {
  const database = await postgresDatabase(t);
  if (database === undefined) return;
  const stores = await Promise.all(
    Array.from({ length: 6 }, () => openPostgresStore(database.url)),
  );
  t.after(() => Promise.all(stores.map((store) => store.close())));
  const opened = openPool(database.url);
  t.after(() => opened.end());
  const applied = await opened.query<{ version: number }>(
    'SELECT version FROM schema_migrations ORDER BY version',
  );
  assert.deepEqual(
    applied.rows.map((row) => row.version),
    migrations.map((step) => step.version),
  );
  await Promise.all(stores.map((store) => store.ping()));
});

test('a failing step is rolled back whole and the version stays where it was', async (t) => {
  const opened = await pool(t);
  if (opened === undefined) return;
  const steps: Migration[] = [
    { version: 1, description: 'one', sqlite: '', postgres: 'CREATE TABLE a (x integer)' },
    {
      version: 2,
      description: 'two',
      sqlite: '',
      postgres: 'CREATE TABLE b (x integer); CREATE TABLE oops (',
    },
  ];
  await assert.rejects(migratePostgres(opened.pool, steps), /syntax error/);
  assert.equal(await schemaVersion(opened.pool), 1);
  assert.deepEqual(await tables(opened.pool), ['a', 'schema_migrations']);
});

test('a database newer than the program is refused, as such and not as an outage', async (t) => {
  const opened = await pool(t);
  if (opened === undefined) return;
  await migratePostgres(opened.pool);
  await opened.pool.query(
    "INSERT INTO schema_migrations (version, description) VALUES ($1, 'from the future')",
    [migrations.length + 1],
  );
  await assert.rejects(openPostgresStore(opened.url), (error: unknown) => {
    assert.ok(error instanceof MigrationError);
    assert.equal(error.code, 'VOUCH_SERVICE_MIGRATION');
    return true;
  });
});

test('version 4 keeps the grants existing tokens count; later ones count for new tokens', async (t) => {
  const opened = await pool(t);
  if (opened === undefined) return;
  await migratePostgres(opened.pool, migrations.slice(0, 3));
  await opened.pool.query(`
    INSERT INTO users (username, password_hash, created_at) VALUES ('alice', 'h', 0), ('bob', 'h', 0);
    INSERT INTO user_scopes (user_id, scope) VALUES (1, 'admin'), (1, 'pets:read'), (2, 'admin');
    INSERT INTO tokens (digest, user_id, created_at, expires_at, scopes)
      VALUES ('old', 1, 0, 100, 'admin pets:read'), ('bob', 2, 0, 100, 'admin');
  `);

  const store = await openPostgresStore(opened.url);
  t.after(() => store.close());
  const scopesOf = async (digest: string) => (await store.findToken(digest, 1))?.scopes;
  assert.deepEqual(await scopesOf('old'), ['admin', 'pets:read']);
  assert.deepEqual(await scopesOf('bob'), ['admin']);
  // A grant given again after the step gets an id above every grant that existed before it.
  await store.revokeUserScope('bob', 'admin');
  await store.grantUserScope('bob', 'admin');
  await store.revokeUserScope('alice', 'admin');
  await store.grantUserScope('alice', 'admin');
  assert.deepEqual(await scopesOf('old'), ['pets:read']);
  assert.deepEqual(await scopesOf('bob'), []);
  await store.createToken('new', 1, 100, 1, ['admin']);
  assert.deepEqual(await scopesOf('new'), ['admin']);
});

test('an unreachable server is StoreUnavailableError at once, naming no password', async () => {
  const port = await freePort();
  const started = Date.now();
  await assert.rejects(
    openPostgresStore(`postgres://vouch:hunter2@127.0.0.1:${port}/vouch`, { timeoutMs: 1000 }),
    (error: unknown) => {
      assert.ok(error instanceof StoreUnavailableError);
      assert.match(error.message, /ECONNREFUSED/);
      assert.doesNotMatch(error.message, /hunter2/);
      return true;
    },
  );
  assert.ok(Date.now() - started < 1500);
});

test("a database or role that does not exist is unavailable, in the server's words", async (t) => {
  const database = await postgresDatabase(t);
  if (database === undefined) return;
  const missing = new URL(database.url);
  missing.pathname = `${missing.pathname}_missing`;
  await assert.rejects(openPostgresStore(missing.toString()), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.match(error.message, /database "vouch_test_\w+_missing" does not exist, 3D000/);
    return true;
  });
  const stranger = new URL(database.url);
  stranger.username = 'vouch_nobody';
  stranger.password = 'hunter2';
  await assert.rejects(openPostgresStore(stranger.toString()), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.match(error.message, /role "vouch_nobody" does not exist/);
    assert.doesNotMatch(error.message, /hunter2/);
    return true;
  });
});

test('a statement slower than the timeout is StoreUnavailableError within it', async (t) => {
  const db = await postgres.create(t);
  if (db === undefined) return;
  const store = await db.open({ timeoutMs: 300 });
  const alice = await store.createUser('alice', 'h', 0);
  await store.createToken('token', alice.id, 10_000, 0);
  // Another connection holds the table: every read of it waits.
  const holder = new pg.Client({ connectionString: db.url });
  // Cut when the database is dropped at the end of the test.
  holder.on('error', () => {});
  await holder.connect();
  t.after(() => holder.end());
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE');
  const started = Date.now();
  await assert.rejects(async () => store.findToken('token', 1), StoreUnavailableError);
  const waited = Date.now() - started;
  assert.ok(waited >= 250 && waited < 1500, `waited ${waited} ms`);
  await store.ping();
  await holder.query('ROLLBACK');
  assert.equal((await store.findToken('token', 1))?.user.username, 'alice');
});

/** Another connection to the test's database, ended when the test ends. */
async function peer(t: TestContext, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // Cut when the database is dropped at the end of the test.
  client.on('error', () => {});
  await client.connect();
  t.after(() => client.end());
  return client;
}

/** Waits until some statement on the database waits for a row or table lock. */
async function someoneWaitsForALock(client: pg.Client): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]?.n !== 0) return;
    assert.ok(Date.now() < deadline, 'nothing waits for a lock');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('a sign-in racing a new password: its session is refused, or ended by the change', async (t) => {
  const db = await postgres.create(t);
  if (db === undefined) return;
  const store = await db.open();
  const alice = await store.createUser('alice', 'old', 0);
  const other = await peer(t, db.url);
  const watcher = await peer(t, db.url);
  const timeouts = { idleMs: 60_000, absoluteMs: 60_000 };

  // The new password is written, not yet committed, when the session checked against the old one
  // is started: the start waits for the change, then finds the new hash and starts nothing.
  await other.query('BEGIN');
  await other.query("UPDATE users SET password_hash = 'new' WHERE id = $1", [alice.id]);
  const late = store.createSession('late', alice.id, 'old', 0);
  await someoneWaitsForALock(watcher);
  await other.query('COMMIT');
  assert.equal(await late, false);

  // A session started first (its row read FOR SHARE, as the store's start reads it, and not yet
  // committed): the change waits for it, then ends it with the others.
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM users WHERE id = $1 FOR SHARE', [alice.id]);
  await other.query(
    `INSERT INTO sessions (digest, user_id, created_at, last_seen_at) VALUES ('early', $1, 0, 0)`,
    [alice.id],
  );
  const changing = store.setUserPassword('alice', 'newer');
  await someoneWaitsForALock(watcher);
  await other.query('COMMIT');
  assert.equal(await changing, 1);
  assert.equal(await store.findSession('early', 1, timeouts), undefined);
});

test('a connection lost in the middle of a password change is closed, and nothing is changed', async (t) => {
  const database = await postgresDatabase(t);
  if (database === undefined) return;
  const store = await openPostgresStore(database.url);
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'old', 0);
  await store.createSession('s', alice.id, 'old', 0);
  const [other, watcher] = [await peer(t, database.url), await peer(t, database.url)];
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM users WHERE id = $1 FOR SHARE', [alice.id]);
  // Its failure is awaited below, once the connection is cut.
  const failing = assert.rejects(store.setUserPassword('alice', 'new'), StoreUnavailableError);
  await someoneWaitsForALock(watcher);
  // The store's connection, waiting inside its transaction, is cut: the rollback cannot be sent.
  await asAdmin(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = '${database.name}' AND wait_event_type = 'Lock'`,
  );
  await failing;
  await other.query('ROLLBACK');
  const found = await store.findUserCredentials('alice');
  assert.equal(found?.passwordHash, 'old', 'the next call gets a connection that works');
  assert.equal(await store.setUserPassword('alice', 'new'), 1);
});

test('a database refusing connections is StoreUnavailableError, and recovery needs no reopening', async (t) => {
  const database = await postgresDatabase(t);
  if (database === undefined) return;
  const store = await openPostgresStore(database.url, { timeoutMs: 1000 });
  t.after(() => store.close());
  await store.createUser('alice', 'h', 0);
  await asAdmin(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS false`);
  await asAdmin(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database.name}'`,
  );
  for (const call of [() => store.ping(), () => store.findUserCredentials('alice')]) {
    await assert.rejects(call(), (error: unknown) => {
      assert.ok(error instanceof StoreUnavailableError);
      assert.equal(error.statusCode, 503);
      return true;
    });
  }
  await asAdmin(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`);
  await store.ping();
  assert.equal((await store.findUserCredentials('alice'))?.username, 'alice');
});

test('the listening connection, when cut, is lost and then listens again', async (t) => {
  const database = await postgresDatabase(t);
  if (database === undefined) return;
  const store = await openPostgresStore(database.url, { listen: { retryMs: 50 } });
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'h', 0);
  const events: string[] = [];
  const changes: CredentialChange[] = [];
  const stop = store.watchChanges({
    ready: () => events.push('ready'),
    changed: (change) => changes.push(change),
    pending: () => events.push('pending'),
    lost: (error) => events.push(`lost ${error instanceof StoreUnavailableError}`),
  });
  t.after(stop);
  await until(() => events.length === 1, 'listening');
  await asAdmin(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = '${database.name}' AND application_name = '${LISTENER_NAME}'`,
  );
  await until(() => events.length === 3, 'lost, then listening again');
  assert.deepEqual(events, ['ready', 'lost true', 'ready']);
  await store.createSession('s', alice.id, 'h', 0);
  await store.deleteSession('s');
  await until(() => changes.length > 0, 'a change after the reconnection is heard');
  assert.deepEqual(changes, [{ kind: 'session', digest: 's' }]);
});

test('a silent listening connection is lost within a second, and listens again', async (t) => {
  const database = await postgresDatabase(t);
  if (database === undefined) return;
  // The store reaches the server through a proxy that can make one connection silent.
  const server = new URL(TEST_POSTGRES_URL);
  const proxy = await tcpProxy(t, server.hostname, Number(server.port || 5432));
  const proxied = new URL(database.url);
  proxied.host = `127.0.0.1:${proxy.port}`;
  const store = await openPostgresStore(proxied.toString(), { listen: { retryMs: 50 } });
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'h', 0);
  const events: { at: number; what: string }[] = [];
  const changes: CredentialChange[] = [];
  t.after(
    store.watchChanges({
      ready: () => events.push({ at: Date.now(), what: 'ready' }),
      changed: (change) => changes.push(change),
      pending: () => events.push({ at: Date.now(), what: 'pending' }),
      lost: (error) =>
        events.push({ at: Date.now(), what: `lost ${error instanceof StoreUnavailableError}` }),
    }),
  );
  await until(() => events.length === 1, 'listening');

  // Where the listening connection comes from, as the server sees it: the proxy's side.
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const { rows } = await admin.query<{ port: number }>(
    'SELECT client_port AS port FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
    [database.name, LISTENER_NAME],
  );
  await admin.end();
  assert.equal(rows.length, 1);
  const silenced = Date.now();
  proxy.silence((connection) => connection.upstreamPort === rows[0]!.port);
  await until(() => events.length === 3, 'lost, then listening again on a new connection');
  assert.deepEqual(
    events.map(({ what }) => what),
    ['ready', 'lost true', 'ready'],
  );
  const lostAfter = events[1]!.at - silenced;
  assert.ok(lostAfter < 1000, `lost ${lostAfter} ms after the connection fell silent`);
  await store.createSession('s', alice.id, 'h', 0);
  await store.deleteSession('s');
  await until(() => changes.length > 0, 'a change after the reconnection is heard');
  assert.deepEqual(changes, [{ kind: 'session', digest: 's' }]);
});

test('driver errors: outages are StoreUnavailableError, bugs stay themselves', () => {
  const sql = (code: string) => Object.assign(new Error('x'), { code });
  const system = (code: string) => Object.assign(new Error(`connect ${code}`), { code });
  for (const error of [
    sql('08006'),
    sql('57P01'),
    sql('57014'),
    sql('55000'),
    sql('53300'),
    sql('40001'),
    sql('3D000'),
    sql('28P01'),
    system('ECONNREFUSED'),
    system('ETIMEDOUT'),
    new Error('Connection terminated unexpectedly'),
  ]) {
    assert.ok(toStoreError(error) instanceof StoreUnavailableError, error.message);
  }
  for (const error of [sql('23505'), sql('42601'), sql('22P02'), new TypeError('bug')]) {
    assert.equal(toStoreError(error), error);
  }
  assert.equal(toStoreError('text').message, 'text');
  const unavailable = new StoreUnavailableError();
  assert.equal(toStoreError(unavailable), unavailable);
});
