// scripts/test.mjs as a newcomer meets it: run in a copy of the repository's shape, with and
// without its dependencies installed. A run that could not start, or ended without results,
// must say why and fail, never print a summary of zero tests. Files run several at a time, and
// runs at the same time each sum up their own.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { until } from '../test/helpers/wait.js';

const root = resolve(import.meta.dirname, '..');
const SUMMARY = /^tests: /m;

let copy = '';
afterEach(() => {
  rmSync(copy, { recursive: true, force: true });
});

/** A repository holding the script, package.json and `tests` (path → source); no dependencies. */
function repository(tests: Readonly<Record<string, string>>): string {
  copy = mkdtempSync(join(tmpdir(), 'vouch-test-script-'));
  cpSync(join(root, 'scripts', 'test.mjs'), join(copy, 'scripts', 'test.mjs'));
  cpSync(join(root, 'package.json'), join(copy, 'package.json'));
  for (const [path, source] of Object.entries(tests)) {
    mkdirSync(join(copy, path, '..'), { recursive: true });
    writeFileSync(join(copy, path), source);
  }
  return copy;
}

function installed(dir: string): void {
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** The environment the script runs in: this one, with the script's defaults, and `env` added. */
function environment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const merged = { ...process.env };
  // Without this, the runner it starts would take itself for one nested in this test and skip.
  delete merged.NODE_TEST_CONTEXT;
  // This run's own choice is not the script's default, which the tests prove.
  delete merged.VOUCH_TEST_CONCURRENCY;
  return { ...merged, ...env };
}

function runScript(dir: string, ...args: string[]) {
  return runScriptWith({}, dir, ...args);
}

function runScriptWith(env: NodeJS.ProcessEnv, dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [join('scripts', 'test.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: environment(env),
  });
}

/** {@link runScript} without waiting: resolves with its status and output. */
async function startScript(dir: string, ...args: string[]) {
  const child = spawn(process.execPath, [join('scripts', 'test.mjs'), ...args], {
    cwd: dir,
    env: environment({}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}

const PASSING = "import { it } from 'node:test';\nit('passes', () => {});\n";

/**
 * A test file that marks its start in the working directory, then waits up to `ms` for `other`'s
 * mark: it passes only when the other file ran at the same time.
 */
function meeting(self: string, other: string, ms: number): string {
  return `import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
it('meets ${other}', async () => {
  writeFileSync('${self}.started', '');
  const deadline = Date.now() + ${ms};
  while (!existsSync('${other}.started') && Date.now() < deadline) await sleep(20);
  assert.ok(existsSync('${other}.started'));
});
`;
}

describe('scripts/test.mjs', () => {
  for (const args of [[], ['--no-coverage']]) {
    it(`without node_modules says to run npm install and fails (${args.join(' ') || 'coverage'})`, () => {
      const dir = repository({ 'test/a.test.ts': PASSING });
      const result = runScript(dir, ...args);
      assert.equal(result.status, 1);
      assert.match(result.stderr, /not installed.*run `npm install` first/);
      assert.doesNotMatch(result.stdout, SUMMARY);
    });
  }

  it('says why when the runner ends without results, and ignores an earlier run’s', () => {
    const dir = repository({
      // The runner itself is killed, as by the OOM killer, before it writes a summary.
      'test/a.test.ts':
        "import { it } from 'node:test';\nit('kills', () => { process.kill(process.ppid, 'SIGKILL'); });\n",
      'test-results/tests.tap': '# pass 5\n# fail 0\n# skipped 0\n',
    });
    installed(dir);
    const result = runScript(dir, '--no-coverage');
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /no test results: the test runner was killed by SIGKILL/);
    assert.doesNotMatch(result.stdout, SUMMARY);
  });

  it('sums up a run that went through', () => {
    const dir = repository({ 'test/a.test.ts': PASSING });
    installed(dir);
    const result = runScript(dir, '--no-coverage');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^tests: 1 passed, 0 failed, 0 skipped$/m);
  });

  it('runs test files at the same time', () => {
    // Each file waits for the other: run one after the other, both would fail.
    const dir = repository({
      'test/a.test.ts': meeting('a', 'b', 60_000),
      'test/b.test.ts': meeting('b', 'a', 60_000),
    });
    installed(dir);
    const result = runScript(dir, '--no-coverage');
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^tests: 2 passed, 0 failed, 0 skipped$/m);
  });

  it('with VOUCH_TEST_CONCURRENCY=1, runs them one after the other', () => {
    // The first file waits in vain for the second; the second finds the first's mark.
    const dir = repository({
      'test/a.test.ts': meeting('a', 'b', 1000),
      'test/b.test.ts': meeting('b', 'a', 1000),
    });
    installed(dir);
    const result = runScriptWith({ VOUCH_TEST_CONCURRENCY: '1' }, dir, '--no-coverage');
    assert.equal(result.status, 1);
    assert.match(result.stdout, /^tests: 1 passed, 1 failed, 0 skipped$/m);
  });

  for (const value of ['0', 'two', '1.5']) {
    it(`refuses VOUCH_TEST_CONCURRENCY=${value}, saying so`, () => {
      const dir = repository({ 'test/a.test.ts': PASSING });
      installed(dir);
      const result = runScriptWith({ VOUCH_TEST_CONCURRENCY: value }, dir, '--no-coverage');
      assert.equal(result.status, 1);
      assert.match(result.stderr, /VOUCH_TEST_CONCURRENCY must be a whole number from 1/);
      assert.doesNotMatch(result.stdout, SUMMARY);
    });
  }

  it('sums up its own run when another runs at the same time', async () => {
    const dir = repository({
      // The first run's only test lasts until the second run has ended.
      'test/first.test.ts': `import { existsSync, writeFileSync } from 'node:fs';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
it('outlasts the other run', async () => {
  writeFileSync('first.started', '');
  const deadline = Date.now() + 60_000;
  while (!existsSync('second.ended') && Date.now() < deadline) await sleep(20);
});
`,
      'test/second.test.ts': `${PASSING}it('passes too', () => {});\n`,
    });
    installed(dir);
    const first = startScript(dir, '--no-coverage', 'first');
    await until(() => existsSync(join(dir, 'first.started')), 'the first run is under way', 60_000);
    const second = runScript(dir, '--no-coverage', 'second');
    writeFileSync(join(dir, 'second.ended'), '');
    assert.match(second.stdout, /^tests: 2 passed, 0 failed, 0 skipped$/m);
    const { status, stdout, stderr } = await first;
    assert.equal(status, 0, stdout + stderr);
    assert.match(stdout, /^tests: 1 passed, 0 failed, 0 skipped$/m);
  });
});
