// scripts/test.mjs as a newcomer meets it: run in a copy of the repository's shape, with and
// without its dependencies installed. A run that could not start, or ended without results,
// must say why and fail, never print a summary of zero tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, it } from 'node:test';

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

function runScript(dir: string, ...args: string[]) {
  // Without this, the runner it starts would take itself for one nested in this test and skip.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, [join('scripts', 'test.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env,
  });
}

const PASSING = "import { it } from 'node:test';\nit('passes', () => {});\n";

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
});
