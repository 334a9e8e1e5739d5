import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it, test } from 'node:test';
import { ConfigurationError } from 'vouch';
import {
  databaseEngine,
  DEFAULT_DATABASE_URL,
  openStore,
  sqlitePath,
  withoutPassword,
} from './open-store.js';

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

test('postgres:// and postgresql:// name PostgreSQL; sqlite: names SQLite', () => {
  assert.equal(databaseEngine('postgres://admin:hunter2@db/vouch'), 'postgres');
  assert.equal(databaseEngine('PostgreSQL://admin@db:5433/vouch?sslmode=require'), 'postgres');
  assert.equal(databaseEngine('sqlite::memory:'), 'sqlite');
});

test('Redis, another scheme or an unparseable URL is refused, never echoing the URL', () => {
  for (const url of [
    'redis://:hunter2@cache:6379',
    'rediss://:hunter2@cache:6379',
    'mysql://u:hunter2@h/d',
    'postgres://u:hunter2@[db/vouch',
  ]) {
    assert.throws(
      () => databaseEngine(url),
      (error: unknown) => {
        assert.ok(error instanceof ConfigurationError, url);
        assert.equal(error.code, 'VOUCH_ERR_CONFIGURATION');
        assert.match(error.message, /^DATABASE_URL must look like/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  }
});

test('messages show a URL without its password', () => {
  assert.equal(
    withoutPassword('postgres://admin:hunter2@db:5432/vouch'),
    'postgres://admin@db:5432/vouch',
  );
  assert.equal(withoutPassword('redis://:hunter2@cache:6379/2'), 'redis://cache:6379/2');
  assert.equal(withoutPassword('sqlite:./data/vouch.db'), 'sqlite:./data/vouch.db');
  assert.equal(withoutPassword('postgres://u:hunter2@[db'), '(a URL that does not parse)');
});

test('anything else is a clear error naming DATABASE_URL', () => {
  for (const url of ['', './data/vouch.db', 'postgres://u:hunter2@h/d', 'sqlite:', 'sqlite://']) {
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
  await assert.rejects(openStore('mysql://db/vouch'), ConfigurationError);
  const memory = await openStore('sqlite::memory:');
  await memory.ping();
  await memory.close();
});

describe('openStore', () => {
  for (const url of ['mysql://x', 'postgres://user:s3cret-pw@[db.example/vouch', 'nothing']) {
    it(`refuses DATABASE_URL=${url} naming the variable, never echoing the URL`, async () => {
      await assert.rejects(openStore(url), (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.match(error.message, /DATABASE_URL/);
        assert.ok(!error.message.includes('s3cret-pw'));
        return true;
      });
    });
  }
});
