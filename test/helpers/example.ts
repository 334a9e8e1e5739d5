// Runs an example as its reader would, `npx tsx examples/<file>`, on a free port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from './wait.js';

/**
 * Starts `examples/<file>` as a program with `env` added, stops it when the test ends, and
 * resolves with its origin once it answers (within 20 s).
 */
export async function runExample(
  t: TestContext,
  file: string,
  env: Record<string, string> = {},
): Promise<string> {
  const port = await freePort();
  const child = spawn('npx', ['tsx', `examples/${file}`], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'silent', ...env },
    stdio: 'ignore',
    // npx starts tsx, which starts node: the whole group is stopped at the end.
    detached: true,
  });
  t.after(async () => {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await once(child, 'exit');
    }
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (
    !(await fetch(origin).then(
      () => true,
      () => false,
    ))
  ) {
    assert.ok(child.exitCode === null, `examples/${file} exited with ${child.exitCode}`);
    assert.ok(Date.now() < deadline, `examples/${file} never listened`);
    await sleep(100);
  }
  return origin;
}
