// A worker thread standing for one process of a service: its own connection to the SQLite file
// (`workerData.file`), claiming `keys` in turn as soon as every worker is ready (a barrier on a
// shared counter), then posting its answers.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteReplayStore } from '../../src/dpop/sqlite-replay-store.js';

interface Work {
  readonly file: string;
  readonly keys: readonly string[];
  readonly expiresAt: number;
  readonly workers: number;
  readonly ready: SharedArrayBuffer;
}

const { file, keys, expiresAt, workers, ready } = workerData as Work;
const db = new Database(file, { timeout: 0 });
const store = sqliteReplayStore(db, { timeoutMs: 10_000 });
const counter = new Int32Array(ready);
Atomics.add(counter, 0, 1);
Atomics.notify(counter, 0);
for (let seen = Atomics.load(counter, 0); seen < workers; seen = Atomics.load(counter, 0)) {
  Atomics.wait(counter, 0, seen);
}
const answers: boolean[] = [];
for (const key of keys) answers.push(await store.claim(key, expiresAt));
db.close();
parentPort?.postMessage(answers);
