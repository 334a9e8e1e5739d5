// Another process holding the SQLite database's write lock (a backup, a migration, the CLI in a
// long transaction) must not stall the service: reads go on, writes answer 503 within the bound,
// and the event loop is never blocked long enough to delay other requests.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_BUSY_TIMEOUT_MS } from '../../service/store/sqlite/open-database.js';
import { addUser, bearer, form, getToken, startService } from './helpers.js';

// A write waits DEFAULT_BUSY_TIMEOUT_MS (2 s) for the lock: had it waited in the driver, the loop
// would be held all that time. Half of it tells the two apart, and leaves room for a busy machine
// (other test files beside this one have delayed the loop 144 ms).
const BLOCKED_MS = DEFAULT_BUSY_TIMEOUT_MS / 2;

it('a write lock held elsewhere never blocks the event loop; writes answer 503', async (t) => {
  const service = await startService(t);
  await addUser(service.store, 'alice', 'wonderland');
  const token = await getToken(service, 'alice', 'wonderland');
  for (let i = 0; i < 2; i++) {
    assert.equal((await service.fetch('/api/bearer', { headers: bearer(token) })).status, 200);
  }

  // Another connection takes the write lock and writes, as another process would.
  const other = new Database(service.file);
  t.after(() => other.close());
  other.exec('BEGIN EXCLUSIVE');
  t.after(() => {
    if (other.inTransaction) other.exec('ROLLBACK');
  });
  other.exec("INSERT INTO settings (name, value) VALUES ('held', 'by another process')");

  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const timed = async (path: string, init?: RequestInit) => {
    const started = Date.now();
    const response = await service.fetch(path, init);
    await response.arrayBuffer();
    return { status: response.status, ms: Date.now() - started };
  };
  // A write waits for the lock without blocking, then gives up: 503 within the bound.
  const write = timed('/api/token', form({ username: 'alice', password: 'wonderland' }));
  const reads = [];
  for (let i = 0; i < 10; i++) {
    reads.push(await timed('/api/health'));
    reads.push(await timed('/api/bearer', { headers: bearer(token) }));
    await sleep(50);
  }
  const written = await write;
  delay.disable();

  for (const read of reads) {
    assert.equal(read.status, 200);
    assert.ok(read.ms < BLOCKED_MS, `a read took ${read.ms} ms while the lock was held`);
  }
  assert.equal(written.status, 503);
  assert.ok(written.ms < 3000, `the write answered after ${written.ms} ms`);
  const maxMs = delay.max / 1e6;
  assert.ok(maxMs < BLOCKED_MS, `the event loop was blocked for ${maxMs.toFixed(0)} ms`);

  other.exec('ROLLBACK');
  assert.equal(
    (await timed('/api/token', form({ username: 'alice', password: 'wonderland' }))).status,
    200,
  );
});
