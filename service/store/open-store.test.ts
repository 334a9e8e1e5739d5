import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { ConfigurationError } from 'vouch';
import { DEFAULT_DATABASE_URL, openStore, sqlitePath } from './open-store.js';

test('the default is a file under ./data', () => {
  assert.equal(DEFAULT_DATABASE_URL, 'sqlite:./data/vouch.db');
  assert.equal(sqlitePath(DEFAULT_DATABASE_URL), resolve('data/vouch.db'));
});

test('sqlite: URLs name relative files, absolute files or memory', () => {
  assert.equal(sqlitePath('sqlite:./x/y.db'), resolve('x/y.db'));
  assert.equal(sqlitePath('sqlite:x.db'), resolve('x.db'));
  assert.equal(sqlitePath('sqlite:/var/lib/vouch.db'), '/var/lib/vouch.db');
  assert.equal(sqlitePath('sqlite:///var/lib/vouch.db'), '/var/lib/vouch.db');
  assert.equal(sqlitePath('sqlite://./x.db'), resolve('x.db'));
  assert.equal(sqlitePath('sqlite::memory:'), ':memory:');
  assert.equal(sqlitePath('SQLite::memory:'), ':memory:');
});

test('PostgreSQL and Redis are not supported yet, and the message never echoes the URL', () => {
  for (const url of [
    'postgres://admin:hunter2@db/vouch',
    'postgresql://admin:hunter2@db/vouch',
    'redis://:hunter2@cache:6379',
    'rediss://:hunter2@cache:6379',
  ]) {
    assert.throws(
      () => sqlitePath(url),
      (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.equal(error.code, 'VOUCH_ERR_CONFIGURATION');
        assert.match(error.message, /^DATABASE_URL: (PostgreSQL|Redis) is not supported yet/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  }
});

test('anything else is a clear error naming DATABASE_URL', () => {
  for (const url of ['', './data/vouch.db', 'mysql://u:hunter2@h/d', 'sqlite:', 'sqlite://']) {
    assert.throws(
      () => sqlitePath(url),
      (error: unknown) => {
        assert.ok(error instanceof ConfigurationError, url);
        assert.match(error.message, /DATABASE_URL/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  }
});

test('openStore opens and migrates the file, creating its folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-open-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'data', 'vouch.db');
  const store = await openStore(`sqlite:${file}`);
  assert.equal(await store.countUsers(), 0);
  await store.close();
  assert.ok(existsSync(file));
  await assert.rejects(openStore('postgres://db/vouch'), ConfigurationError);
  const memory = await openStore('sqlite::memory:');
  await memory.ping();
  await memory.close();
});
