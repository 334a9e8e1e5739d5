import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { migrations, type Migration } from '../migrations.js';
import { migrate, userVersion } from './migrate.js';
import { openSqliteStore } from './open-sqlite-store.js';

function tempFile(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-migrations-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return join(dir, 'vouch.db');
}

function tables(db: Database.Database): string[] {
  return db
    .prepare<[], string>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all();
}

test('a new database gets every table and the latest version', () => {
  const db = new Database(':memory:');
  assert.equal(userVersion(db), 0);
  assert.equal(migrate(db), migrations.length);
  assert.deepEqual(tables(db), [
    'application_scopes',
    'applications',
    'sessions',
    'settings',
    'tokens',
    'user_scopes',
    'users',
  ]);
  const indexes = db
    .prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")
    .pluck()
    .all();
  assert.deepEqual(indexes.sort(), ['sessions_by_user', 'tokens_by_expiry', 'tokens_by_user']);
  db.close();
});

test('migrating again, after reopening the file, changes nothing and keeps the data', (t) => {
  const file = tempFile(t);
  const first = new Database(file);
  migrate(first);
  first
    .prepare('INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, ?)')
    .run('alice', 'h', 1);
  const schema = first.prepare('SELECT sql FROM sqlite_schema ORDER BY name').all();
  first.close();

  const second = new Database(file);
  assert.equal(migrate(second), migrations.length);
  assert.equal(migrate(second), migrations.length);
  assert.deepEqual(second.prepare('SELECT sql FROM sqlite_schema ORDER BY name').all(), schema);
  assert.equal(second.prepare('SELECT count(*) FROM users').pluck().get(), 1);
  second.close();
});

test('a failing step is rolled back whole and the version stays where it was', () => {
  const db = new Database(':memory:');
  const steps: Migration[] = [
    { version: 1, description: 'one', sqlite: 'CREATE TABLE a (x INTEGER)', postgres: '' },
    {
      version: 2,
      description: 'two',
      sqlite: 'CREATE TABLE b (x INTEGER); CREATE TABLE oops (',
      postgres: '',
    },
  ];
  assert.throws(() => migrate(db, steps), /incomplete input|syntax error/);
  assert.equal(userVersion(db), 1);
  assert.deepEqual(tables(db), ['a']);
  db.close();
});

test('a database newer than the program is refused, untouched', () => {
  const db = new Database(':memory:');
  db.pragma(`user_version = ${migrations.length + 1}`);
  assert.throws(() => migrate(db), { code: 'VOUCH_SERVICE_MIGRATION' });
  assert.deepEqual(tables(db), []);
  db.close();
});

test('steps must be numbered without gaps', () => {
  const db = new Database(':memory:');
  assert.throws(
    () => migrate(db, [{ version: 2, description: 'gap', sqlite: 'SELECT 1', postgres: '' }]),
    { code: 'VOUCH_SERVICE_MIGRATION' },
  );
  db.close();
});

test('version 4 keeps the grants existing tokens count; later ones count for new tokens', async (t) => {
  const file = tempFile(t);
  const old = new Database(file);
  migrate(old, migrations.slice(0, 3));
  old.exec(`
    INSERT INTO users (username, password_hash, created_at) VALUES ('alice', 'h', 0), ('bob', 'h', 0);
    INSERT INTO user_scopes (user_id, scope) VALUES (1, 'admin'), (1, 'pets:read'), (2, 'admin');
    INSERT INTO tokens (digest, user_id, created_at, expires_at, scopes)
      VALUES ('old', 1, 0, 100, 'admin pets:read'), ('bob', 2, 0, 100, 'admin');
  `);
  old.close();

  const store = openSqliteStore(file);
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
