// Runs an example as its reader would, `npx tsx examples/<file>`, on a free port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort, STARTUP_MS } from './wait.js';

/** An example running as a program. */
export interface RunningExample {
  readonly origin: string;
  /** The lines it has written to standard output so far. */
  readonly output: readonly string[];
}

/**
 * Starts `examples/<file>` as a program with `env` added, stops it when the test ends, and
 * resolves with its origin once it answers (within STARTUP_MS).
 */
export async function runExample(
  t: TestContext,
  file: string,
  env: Record<string, string> = {},
): Promise<string> {
  return (await startExample(t, file, env)).origin;
}

/**
 * {@link runExample}, keeping what the example prints. It listens on `env.PORT` when given (for
 * an example whose configuration names its own URL), else on a free port.
 */
export async function startExample(
  t: TestContext,
  file: string,
  env: Record<string, string> = {},
): Promise<RunningExample> {
  const port = env['PORT'] ?? String(await freePort());
  const child = spawn('npx', ['tsx', `examples/${file}`], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, PORT: port, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // npx starts tsx, which starts node: the whole group is stopped at the end.
    detached: true,
  });
  const output: string[] = [];
  const errors: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => output.push(line));
  createInterface({ input: child.stderr }).on('line', (line) => errors.push(line));
  t.after(async () => {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await once(child, 'exit');
    }
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_MS;
  while (
    !(await fetch(origin).then(
      () => true,
      () => false,
    ))
  ) {
    const said = errors.join('\n');
    assert.ok(child.exitCode === null, `examples/${file} exited with ${child.exitCode}: ${said}`);
    assert.ok(Date.now() < deadline, `examples/${file} never listened: ${said}`);
    await sleep(100);
  }
  return { origin, output };
}
