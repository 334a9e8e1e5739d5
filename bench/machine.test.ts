import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { pinApart } from './machine.js';

/** The CPUs a process may run on, as Linux lists them (`0`, `0-2`, …). */
function allowed(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1] ?? '';
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const skip =
  process.platform !== 'linux'
    ? 'pinning is Linux only'
    : availableParallelism() < 2
      ? 'pinning needs two CPUs'
      : hasTaskset()
        ? false
        : 'taskset (util-linux) is not installed';

// This pins the test's own process: it runs in a process of its own, which ends with the file.
test(
  'pinApart puts the server on the last CPU and this process on the others',
  { skip },
  async (t) => {
    const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
    });
    t.after(() => server.kill());
    await once(server, 'spawn');
    const pid = server.pid!;
    const count = availableParallelism();
    const last = String(count - 1);
    const rest = count === 2 ? '0' : `0-${count - 2}`;

    const before = allowed(pid);
    const previous = process.env.BENCH_PIN;
    process.env.BENCH_PIN = '0';
    try {
      assert.equal(pinApart(pid), 'not pinned (BENCH_PIN=0)');
      assert.equal(allowed(pid), before, 'left alone');
    } finally {
      if (previous === undefined) delete process.env.BENCH_PIN;
      else process.env.BENCH_PIN = previous;
    }

    assert.equal(pinApart(pid), `server on CPU ${last}, load generator on CPU ${rest}`);
    assert.equal(allowed(pid), last);
    assert.equal(allowed(process.pid), rest);
  },
);
