// Runs every *.test.ts under src/, test/, examples/, bench/, service/ and scripts/ with Node's test
// runner through tsx, under c8 coverage (thresholds in .c8rc.json) unless --no-coverage is given.
// Node 20 does not expand globs for --test, so the files are listed here. Extra arguments filter
// by path. The last line is a plain "tests: N passed, N failed, N skipped" summary, or, when the
// runner could not start or ended without one, the reason, with a non-zero exit status.
// Files run CONCURRENCY at a time (VOUCH_TEST_CONCURRENCY=N to change it; 1 runs them one by
// one): most of their time is spent waiting on sockets, child processes, databases and scrypt,
// not on a processor, so more files than processors fit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const CONCURRENCY = 4;

const roots = ['src', 'test', 'examples', 'bench', 'service', 'scripts'];
const files = [];
function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.test.ts')) files.push(path);
  }
}
for (const root of roots) walk(root);
files.sort();

const args = process.argv.slice(2);
const coverage = !args.includes('--no-coverage');
const filters = args.filter((arg) => !arg.startsWith('--'));
const selected = filters.length
  ? files.filter((file) => filters.some((filter) => file.includes(filter)))
  : files;
if (selected.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

const concurrencyVariable = process.env.VOUCH_TEST_CONCURRENCY ?? '';
const concurrency = concurrencyVariable === '' ? CONCURRENCY : Number(concurrencyVariable);
if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
  console.error(
    `VOUCH_TEST_CONCURRENCY must be a whole number from 1, not "${concurrencyVariable}"`,
  );
  process.exit(1);
}

// Without the dependencies the runner cannot even start: say so rather than count nothing.
const c8Bin = join('node_modules', '.bin', 'c8');
const missing = [];
try {
  createRequire(resolve('package.json')).resolve('tsx');
} catch {
  missing.push('tsx');
}
if (coverage && !existsSync(c8Bin)) missing.push('c8');
if (missing.length > 0) {
  console.error(
    `dependencies are not installed (${missing.join(' and ')} not found): run \`npm install\` first`,
  );
  process.exit(1);
}

mkdirSync('test-results', { recursive: true });
// This run's own summary: another run at the same time writes its own file. One left by an
// earlier run of the same process id must never pass for this one's.
const tap = join('test-results', `tests-${process.pid}.tap`);
rmSync(tap, { force: true });
const node = [
  process.execPath,
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${concurrency}`,
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tap}`,
  ...selected,
];
// Coverage thresholds apply to the whole library only when the whole suite runs.
const c8 = [c8Bin, ...(filters.length ? ['--check-coverage=false'] : [])];
const command = coverage ? [...c8, ...node] : node;
const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });

if (result.error) {
  console.error(`the test runner did not start (${command[0]}): ${result.error.message}`);
  process.exit(1);
}

const counts = {};
try {
  for (const line of readFileSync(tap, 'utf8').split('\n')) {
    const match = /^# (pass|fail|skipped|todo) (\d+)$/.exec(line);
    if (match) counts[match[1]] = Number(match[2]);
  }
} catch {
  // No TAP file at all: reported below like a file without a summary.
}
rmSync(tap, { force: true });
if (counts.pass === undefined) {
  const end = result.signal
    ? `was killed by ${result.signal}`
    : `exited with status ${result.status}`;
  console.error(`no test results: the test runner ${end} before writing its summary to ${tap}`);
  process.exit(result.status || 1);
}
console.log(
  `tests: ${counts.pass} passed, ${counts.fail ?? 0} failed, ${counts.skipped ?? 0} skipped`,
);
process.exit(result.status ?? 1);
