// Runs the NestJS suites on the oldest NestJS major that package.json accepts (11), which the
// project's own install (12) never meets: installs the latest 11.x of Nest's packages in a
// temporary directory, copies the repository beside a node_modules of links to the project's
// packages with that @nestjs/ in place of the project's, and runs scripts/test.mjs there (never
// part of `npm test`). Extra arguments replace the default path filters.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MAJOR = 11;
const PACKAGES = ['common', 'core', 'platform-express', 'platform-fastify', 'swagger'];
// Nest's required peers, at the project's ranges.
const PEERS = ['reflect-metadata@^0.2.2', 'rxjs@^7.8.2'];
const FILTERS = [
  'src/nestjs',
  'test/contract/nestjs',
  'examples/engines',
  'test/http/refusal-headers',
];
// What the copy leaves out: installs, outputs, history.
const LEFT_OUT = new Set(['node_modules', '.git', 'dist', 'coverage', 'test-results', 'data']);

const root = resolve(import.meta.dirname, '..');
const filters = process.argv.slice(2);
const work = mkdtempSync(join(tmpdir(), `vouch-nest${MAJOR}-`));
let status;
try {
  const install = join(work, 'install');
  const installed = run('npm', [
    'install',
    '--prefix',
    install,
    '--no-save',
    '--no-package-lock',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    ...PACKAGES.map((name) => `@nestjs/${name}@^${MAJOR}`),
    ...PEERS,
  ]);
  if (installed !== 0) throw new Error(`npm install exited with status ${installed}`);

  const copy = join(work, 'vouch');
  for (const entry of readdirSync(root)) {
    if (!LEFT_OUT.has(entry)) cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  const modules = join(copy, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '@nestjs') symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync(join(install, 'node_modules', '@nestjs'), join(modules, '@nestjs'), 'dir');

  const require = createRequire(join(copy, 'package.json'));
  const versions = PACKAGES.map(
    (name) => `@nestjs/${name} ${require(`@nestjs/${name}/package.json`).version}`,
  );
  console.log(`on ${versions.join(', ')}`);
  status = run(
    process.execPath,
    ['scripts/test.mjs', '--no-coverage', ...(filters.length ? filters : FILTERS)],
    copy,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);

/** Runs a command, its output on ours, and gives its exit status. */
function run(command, args, cwd = work) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}
