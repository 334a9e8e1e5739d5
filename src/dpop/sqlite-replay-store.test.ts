import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { StoreUnavailableError } from '../core/errors.js';
import { randomKey, sqliteFile } from '../../test/helpers/replay-store-engines.js';
import { sqliteReplayStore } from './sqlite-replay-store.js';

const MINUTE = 60_000;

/** A store whose table exists, and another connection to its file holding the write lock. */
async function lockedByAnother(t: TestContext, timeoutMs: number) {
  const { connect } = sqliteFile(t);
  const store = sqliteReplayStore(connect(), { timeoutMs });
  assert.equal(await store.claim(randomKey(), Date.now() + MINUTE), true, 'table made');
  const other = connect();
  other.exec('BEGIN IMMEDIATE');
  return { store, other };
}

describe('sqliteReplayStore', () => {
  it('processes claiming the same keys at once on one file: each key is fresh exactly once', async (t) => {
    const { file, connect } = sqliteFile(t);
    connect(); // the file, in WAL mode; the table is the workers' to create, together
    const workers = 4;
    const keys = Array.from({ length: 300 }, randomKey);
    const ready = new SharedArrayBuffer(4);
    const answers = await Promise.all(
      Array.from({ length: workers }, async () => {
        const worker = new Worker(
          new URL('../../test/helpers/sqlite-replay-worker.ts', import.meta.url),
          {
            workerData: { file, keys, expiresAt: Date.now() + MINUTE, workers, ready },
          },
        );
        const [message] = (await once(worker, 'message')) as [boolean[]];
        return message;
      }),
    );
    for (const [i, key] of keys.entries()) {
      const fresh = answers.filter((mine) => mine[i] === true).length;
      assert.equal(fresh, 1, `key ${key}`);
    }
  });

  it('waits for another connection to release its lock, without blocking, within timeoutMs', async (t) => {
    const { store, other } = await lockedByAnother(t, 2000);
    const key = randomKey();
    const claim = store.claim(key, Date.now() + MINUTE);
    await sleep(50); // the event loop runs meanwhile: this timer fires while the claim waits
    other.exec('COMMIT');
    assert.equal(await claim, true);
    assert.equal(await store.claim(key, Date.now() + MINUTE), false);
  });

  it('a database locked past timeoutMs is StoreUnavailableError, and records nothing', async (t) => {
    const { store, other } = await lockedByAnother(t, 50);
    const key = randomKey();
    const started = Date.now();
    await assert.rejects(
      async () => store.claim(key, Date.now() + MINUTE),
      (error) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.match(String((error.cause as { code?: unknown }).code), /^SQLITE_BUSY/);
        return true;
      },
    );
    assert.ok(Date.now() - started >= 50, 'it waited');
    other.exec('ROLLBACK');
    assert.equal(await store.claim(key, Date.now() + MINUTE), true, 'not recorded');
  });
});
