// What installing vouch installs. A package in `dependencies` lands in every user's project, so
// it must be one that an entry needing no peer loads (`vouch/csrf`, `vouch/session`: any engine's
// app may import them); a package only entries with peers of their own load is one more optional
// peer of those entries, which npm leaves out until the user installs it (README's install
// section says which, per entry). Each entry's module graph is walked from its sources:
// what runs is what TypeScript emits (type-only imports erased), what TypeScript users need is
// every import.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { packageName, walkModules } from '../helpers/module-graph.js';

const root = resolve(import.meta.dirname, '../..');

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { default: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const dependencies = Object.keys(manifest.dependencies ?? {}).sort();

/** What a user of each entry installs besides vouch, as README's install section says. */
const PEERS: Readonly<Record<string, readonly string[]>> = {
  '.': [],
  './csrf': [],
  './session': [],
  './openapi': [],
  './jwt': ['jose'],
  './oauth': [],
  './dpop': ['jose'],
  './mtls': [],
  './hono': ['hono'],
  './express': ['express'],
  './nestjs': ['@nestjs/common', '@nestjs/core'],
  './fastify': ['fastify', 'fastify-plugin'],
  './fastify/openapi': ['@fastify/swagger', '@fastify/swagger-ui', 'fastify', 'fastify-plugin'],
};

/** The source of a package export: `./dist/jwt/index.js` is built from `src/jwt/index.ts`. */
function sourceOf(name: string): string {
  const target = manifest.exports[name];
  const built = typeof target === 'string' ? target : (target?.default ?? '');
  return built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
}

/** The specifiers a source imports: all of them, or only those left in the JavaScript emitted. */
function importsOf(file: string, at: 'runtime' | 'types'): string[] {
  const text = readFileSync(file, 'utf8');
  const code =
    at === 'types'
      ? text
      : ts.transpileModule(text, {
          fileName: file,
          compilerOptions: {
            module: ts.ModuleKind.NodeNext,
            target: ts.ScriptTarget.ES2023,
            verbatimModuleSyntax: true,
          },
        }).outputText;
  return ts.preProcessFile(code, true, true).importedFiles.map((imported) => imported.fileName);
}

const walked = new Map<string, Map<string, string>>();

/** The packages the entry's modules import, each with the first chain of modules reaching it. */
function packagesOf(entry: string, at: 'runtime' | 'types'): Map<string, string> {
  const key = `${at} ${entry}`;
  const cached = walked.get(key);
  if (cached !== undefined) return cached;
  const found = new Map<string, string>();
  walked.set(key, found);
  walkModules(
    root,
    entry,
    (file) => importsOf(file, at),
    (specifier, chain) => {
      const name = packageName(specifier);
      if (!found.has(name)) found.set(name, `${chain.join(' → ')} → ${specifier}`);
      return undefined;
    },
  );
  return found;
}

/** The packages an entry needs, vouch's own dependencies aside. */
function peersOf(entry: string, at: 'runtime' | 'types'): string[] {
  return [...packagesOf(entry, at).keys()].filter((name) => !dependencies.includes(name)).sort();
}

/** The engines' adapters: every application loads one of them. */
/** The entries a user imports with nothing but vouch installed. */
const PEER_FREE = Object.keys(PEERS).filter((name) => PEERS[name]?.length === 0);

const exported = Object.keys(manifest.exports).filter((name) => name !== './package.json');

function entryName(name: string): string {
  return name === '.' ? 'vouch' : `vouch/${name.slice(2)}`;
}

describe('dependencies', () => {
  it('lists the peers of every package export', () => {
    assert.deepEqual(Object.keys(PEERS).sort(), exported.sort());
  });

  it('are exactly the packages the entries needing no peer load', () => {
    const loaded = new Set(
      PEER_FREE.flatMap((name) => [...packagesOf(sourceOf(name), 'runtime').keys()]),
    );
    assert.deepEqual(
      dependencies.filter((name) => !loaded.has(name)),
      [],
      'installed for every user, loaded only by entries with peers: make it their optional peer',
    );
    assert.deepEqual(
      [...loaded].filter((name) => !dependencies.includes(name)).sort(),
      [],
      'loaded by an entry that needs no peer: make it a dependency',
    );
  });

  it('leave every peer optional, each the peer of some entry', () => {
    const peers = Object.keys(manifest.peerDependencies ?? {}).sort();
    assert.deepEqual(peers, [...new Set(Object.values(PEERS).flat())].sort());
    const required = peers.filter((name) => !manifest.peerDependenciesMeta?.[name]?.optional);
    assert.deepEqual(required, [], 'npm installs a peer not marked optional for every user');
  });

  for (const name of exported) {
    const entry = sourceOf(name);
    const peers = [...(PEERS[name] ?? [])].sort();
    const needs = peers.length === 0 ? 'nothing but vouch' : peers.join(', ');
    it(`'${entryName(name)}' needs ${needs}`, () => {
      const loaded = packagesOf(entry, 'runtime');
      const strays = [...loaded].filter(
        ([pkg]) => !dependencies.includes(pkg) && !peers.includes(pkg),
      );
      assert.deepEqual(
        strays.map(([, chain]) => chain),
        [],
        'loaded at run time: neither a dependency nor a peer of this entry',
      );
      // Every peer named is one its declarations or code import: none installed for nothing.
      assert.deepEqual(peersOf(entry, 'types'), peers);
    });
  }

  it('tells what runs from what only types need', () => {
    const express = packagesOf(sourceOf('./express'), 'types');
    assert.ok(express.has('express'));
    assert.equal(packagesOf(sourceOf('./express'), 'runtime').has('express'), false);
  });
});
