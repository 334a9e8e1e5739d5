// The service's tree reads like its architecture: each concept has one place, the folders stand in
// layers, and each test sits where one rule puts it. A test that proves one module lives beside
// it; a suite that starts the whole service (its app on a socket, or its processes) lives in
// test/service/.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..');

/** Every `.ts` file under `dir`, as paths from the repository root. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

test('no module stands beside a folder of its own concept (cli.ts beside cli/)', () => {
  const strays: string[] = [];
  const folders = readdirSync(join(root, 'service'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  for (const file of sources('service')) {
    const name = file.slice(dirname(file).length + 1).replace(/(\.test)?\.ts$/, '');
    for (const folder of folders) {
      const concept = folder.slice(dirname(folder).length + 1);
      const beside = dirname(folder) === dirname(file);
      if (beside && (name === concept || name.startsWith(`${concept}-`))) strays.push(file);
    }
  }
  assert.deepEqual(strays, []);
});

/** The files (from the repository root) that `file` imports by a relative path. */
function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(([, path]) =>
    join(dirname(file), path!).replace(/\.js$/, '.ts'),
  );
}

test('a suite that starts the whole service lives in test/service/, and only there', () => {
  const files = ['test', 'bench', 'examples', 'scripts', 'service'].flatMap(sources);
  // What starts the whole service: its app, or its server as a process.
  const starts = (file: string): boolean =>
    imports(file).includes('service/app.ts') ||
    /service\/server\.ts|'service', 'server\.ts'/.test(readFileSync(join(root, file), 'utf8'));
  const reaching = new Set(files.filter(starts));
  for (let grown = true; grown;) {
    grown = false;
    for (const file of files) {
      if (reaching.has(file) || !imports(file).some((path) => reaching.has(path))) continue;
      reaching.add(file);
      grown = true;
    }
  }
  // A benchmark's own test proves that the app it times answers (bench/README.md).
  const misplaced = [...reaching].filter(
    (file) =>
      file.endsWith('.test.ts') && !file.startsWith('test/service/') && !file.startsWith('bench/'),
  );
  assert.deepEqual(misplaced.sort(), []);
  // Every suite there does start the service; one that proves a module belongs beside it.
  const unstarted = sources('test/service').filter(
    (file) => file.endsWith('.test.ts') && !reaching.has(file),
  );
  assert.deepEqual(unstarted, []);
});

/** The service's modules (tests aside), each with the modules it imports. */
function moduleGraph(): Map<string, string[]> {
  const modules = sources('service').filter((file) => !file.endsWith('.test.ts'));
  return new Map(modules.map((file) => [file, imports(file)]));
}

test('the folders stand in layers: no two import each other', () => {
  // Its folder under service/ (service/store for service/store/sqlite/migrate.ts), or the file.
  const room = (file: string): string => file.split('/').slice(0, 2).join('/');
  const arrows = new Set<string>();
  for (const [file, targets] of moduleGraph()) {
    for (const target of targets) {
      if (room(file) !== room(target)) arrows.add(`${room(file)} -> ${room(target)}`);
    }
  }
  const mutual = [...arrows].filter((arrow) =>
    arrows.has(arrow.split(' -> ').reverse().join(' -> ')),
  );
  assert.deepEqual(mutual.sort(), []);
});

test('no modules import each other in a circle', () => {
  const graph = moduleGraph();
  const circles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (path.includes(target)) {
        circles.push([...path.slice(path.indexOf(target)), target].join(' -> '));
      } else if (!done.has(target)) visit(target);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  assert.deepEqual(circles, []);
});
