// The service's tree reads like its architecture: each concept has one place.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
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
