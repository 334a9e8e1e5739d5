// Runs every *.test.ts under src/, test/, examples/, bench/ and service/ with Node's test runner through
// tsx, under c8 coverage (thresholds in .c8rc.json) unless --no-coverage is given. Node 20 does
// not expand globs for --test, so the files are listed here. Extra arguments filter by path.
// The last line is a plain "tests: N passed, N failed, N skipped" summary.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['src', 'test', 'examples', 'bench', 'service'];
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

mkdirSync('test-results', { recursive: true });
const tap = join('test-results', 'tests.tap');
const node = [
  process.execPath,
  '--import',
  'tsx',
  '--test',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tap}`,
  ...selected,
];
// Coverage thresholds apply to the whole library only when the whole suite runs.
const c8 = [
  join('node_modules', '.bin', 'c8'),
  ...(filters.length ? ['--check-coverage=false'] : []),
];
const command = coverage ? [...c8, ...node] : node;
const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });

const counts = { pass: 0, fail: 0, skipped: 0, todo: 0 };
try {
  for (const line of readFileSync(tap, 'utf8').split('\n')) {
    const match = /^# (pass|fail|skipped|todo) (\d+)$/.exec(line);
    if (match) counts[match[1]] = Number(match[2]);
  }
} catch {
  // No TAP output: the runner did not start; the exit status below says so.
}
console.log(`tests: ${counts.pass} passed, ${counts.fail} failed, ${counts.skipped} skipped`);
process.exit(result.status ?? 1);
