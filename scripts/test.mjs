// Runs every *.test.ts under src/ and test/ with Node's test runner through tsx, under c8 coverage
// unless --no-coverage is given. Node 20 does not expand globs for --test, so the files are listed
// here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['src', 'test', 'examples'];
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
const filter = args.filter((a) => !a.startsWith('--'));
const selected = filter.length ? files.filter((f) => filter.some((p) => f.includes(p))) : files;

const node = [process.execPath, '--import', 'tsx', '--test', '--test-reporter=spec', ...selected];
const command = coverage ? [join('node_modules', '.bin', 'c8'), ...node] : node;
const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
process.exit(result.status ?? 1);
