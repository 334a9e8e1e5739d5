import { isBuiltin } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

/** The package a bare specifier names: `hono` for `hono/route`, `@noble/hashes` for `@noble/hashes/sha2.js`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * Walks the modules reachable from `entry`, each once. `visit` is given a module and the chain of
 * modules leading to it (paths relative to `root`, the module last) and returns the specifiers
 * it imports. Relative ones are followed (from a `.ts` source, `./x.js` is `./x.ts`), Node
 * builtins are not, and each bare one goes to `onPackage`, which returns the file to walk on in,
 * or `undefined` to stop there.
 */
export function walkModules(
  root: string,
  entry: string,
  visit: (file: string, chain: readonly string[]) => readonly string[],
  onPackage: (specifier: string, chain: readonly string[]) => string | undefined,
): void {
  const seen = new Set<string>();
  const step = (file: string, before: readonly string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const chain = [...before, relative(root, file)];
    for (const specifier of visit(file, chain)) {
      if (isBuiltin(specifier)) continue;
      let next: string | undefined;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        next = file.endsWith('.ts') ? target.replace(/\.js$/, '.ts') : target;
      } else {
        next = onPackage(specifier, chain);
      }
      if (next !== undefined) step(next, chain);
    }
  };
  step(resolve(root, entry), []);
}
