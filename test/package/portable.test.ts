// The entry points that must run on any JavaScript runtime (Node, Bun, Deno, Workers): walked
// module by module from their sources, none may import a Node builtin (`node:crypto`, or `fs` by
// its bare name) or use Node's globals `Buffer` and `process`; the third-party packages they
// import are read the same way. The Fastify adapter and its OpenAPI plugin run on Node only. A
// module may still look for what a runtime offers through `globalThis`, with a portable way kept
// for where it is missing (src/internal/node-crypto.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { packageName, walkModules } from '../helpers/module-graph.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * Package exports that must be portable, with their sources. Every export of package.json is
 * either here or in NODE_ONLY_EXPORTS; one listed here but not exported yet is skipped, saying so.
 */
export const PORTABLE_EXPORTS: Readonly<Record<string, string>> = {
  '.': 'src/index.ts',
  './csrf': 'src/csrf/index.ts',
  './hono': 'src/hono/index.ts',
  './jwt': 'src/jwt/index.ts',
  './oauth': 'src/oauth/index.ts',
  './dpop': 'src/dpop/index.ts',
  './openapi': 'src/openapi/index.ts',
  './session': 'src/session/index.ts',
};

/**
 * Package exports allowed to import Node builtins: they run inside Fastify, Express or NestJS (on
 * either), on Node, or read what only Node gives (`vouch/mtls`: its X509Certificate).
 */
const NODE_ONLY_EXPORTS = [
  './express',
  './fastify',
  './fastify/openapi',
  './mtls',
  './nestjs',
  './package.json',
];

/** Third-party packages the portable entries may import; each is checked like our own code. */
const ALLOWED_PACKAGES = [
  '@noble/hashes',
  'cookie',
  'hono',
  'jose',
  // proxy-addr (Express's trusted-proxy lists) and what it requires.
  'proxy-addr',
  'forwarded',
  'ipaddr.js',
];

const NODE_GLOBALS = new Set(['Buffer', 'process']);

interface Finding {
  readonly kind: 'import' | 'global';
  readonly name: string;
}

/** What one module's source imports, and the Node-only things it uses. */
export function scan(fileName: string, text: string): { imports: string[]; findings: Finding[] } {
  const imports = ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
  const findings: Finding[] = imports
    .filter((specifier) => isBuiltin(specifier))
    .map((name) => ({ kind: 'import', name }));
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text) && !isMemberName(node)) {
      findings.push({ kind: 'global', name: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { imports, findings };
}

// `x.process`, `{ process: 1 }`, `process(view) {}` name members, not the global.
function isMemberName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAccessExpression(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isQualifiedName(parent)) &&
    (ts.isQualifiedName(parent) ? parent.right : parent.name) === node
  );
}

/** Every problem met walking from `entry`, each with the chain of modules that leads to it. */
function walk(entry: string): string[] {
  const problems: string[] = [];
  walkModules(
    root,
    entry,
    (file, chain) => {
      const { imports, findings } = scan(file, readFileSync(file, 'utf8'));
      for (const { kind, name } of findings) {
        const what = kind === 'import' ? `imports '${name}'` : `uses the Node global ${name}`;
        problems.push(`${chain.join(' → ')} ${what}`);
      }
      return imports;
    },
    (specifier, chain) => {
      if (ALLOWED_PACKAGES.includes(packageName(specifier))) {
        // A package's own dependencies resolve from where it lies (proxy-addr has its own
        // ipaddr.js), as Node resolves its `require` calls.
        const importer = chain.at(-1) ?? '';
        return importer.includes('node_modules/')
          ? createRequire(join(root, importer)).resolve(specifier)
          : fileURLToPath(import.meta.resolve(specifier));
      }
      problems.push(`${chain.join(' → ')} imports '${specifier}', not in ALLOWED_PACKAGES`);
      return undefined;
    },
  );
  return problems;
}

const exported = Object.keys(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: object }).exports,
);

describe('portable entry points', () => {
  it('classifies every package export as portable or Node-only', () => {
    const unclassified = exported.filter(
      (name) => !(name in PORTABLE_EXPORTS) && !NODE_ONLY_EXPORTS.includes(name),
    );
    assert.deepEqual(unclassified, [], 'add each to PORTABLE_EXPORTS or NODE_ONLY_EXPORTS');
  });

  for (const [name, entry] of Object.entries(PORTABLE_EXPORTS)) {
    const title = `'${name === '.' ? 'vouch' : `vouch/${name.slice(2)}`}' (${entry})`;
    const skip = exported.includes(name) ? false : `${name} is not in package.json's exports yet`;
    it(`${title} imports nothing Node-only`, { skip }, () => {
      assert.deepEqual(walk(entry), []);
    });
  }

  it('reports Node imports and globals, and ignores comments, strings and members', () => {
    const { imports, findings } = scan(
      'sample.ts',
      [
        "import { createHmac } from 'node:crypto';",
        "import type { Socket } from 'net';",
        "export { x } from './x.js';",
        "const fs = await import('fs');",
        'const size = Buffer.byteLength(text);',
        'const env: typeof process.env = {};',
        '// Buffer.from(process.env.SECRET)',
        "const message = 'process Buffer';",
        'const member = options.process ?? { process: 1, Buffer: 2 };',
      ].join('\n'),
    );
    assert.deepEqual(imports, ['node:crypto', 'net', './x.js', 'fs']);
    assert.deepEqual(findings, [
      { kind: 'import', name: 'node:crypto' },
      { kind: 'import', name: 'net' },
      { kind: 'import', name: 'fs' },
      { kind: 'global', name: 'Buffer' },
      { kind: 'global', name: 'process' },
    ]);
  });

  it('names the chain to a module that breaks portability', () => {
    assert.match(walk('src/fastify/index.ts').join('\n'), /src\/fastify\/index\.ts → .* imports/);
  });
});
