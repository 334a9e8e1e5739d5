// The package as users get it: `npm pack`, unpacked as a dependency of a scratch project, then
// type-checked with the user-facing strict settings and run. Proves the exports map, the emitted
// declarations (including the Fastify augmentation that types request.auth) and the runtime files.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository, so the consumer's own imports of fastify resolve to our node_modules.
mkdirSync(join(root, 'test-results'), { recursive: true });
const project = mkdtempSync(join(root, 'test-results', 'consumer-'));
after(() => {
  rmSync(project, { recursive: true, force: true });
});

const consumer = `
import Fastify from 'fastify';
import { HttpBearer, type AuthOf } from 'vouch';
import { vouch, withAuth } from 'vouch/fastify';
import { vouchOpenapi } from 'vouch/openapi';
import { createCsrfVerifier } from 'vouch/csrf';
import { MemorySessionStore } from 'vouch/session';
import { JwtBearer } from 'vouch/jwt';

interface User { id: number }
const bearer = new HttpBearer({ authenticate: (_request, token): User | undefined => (token === 't' ? { id: 1 } : undefined) });
const user: AuthOf<typeof bearer> = { id: 2 };
const app = Fastify();
await app.register(vouch, { auth: bearer });
await app.register(vouchOpenapi, { openapi: { info: { title: 'consumer', version: '1' } } });
app.get('/me', withAuth(bearer, async (request) => ({ id: request.auth.id + user.id })));
const ok = await app.inject({ url: '/me', headers: { authorization: 'Bearer t' } });
const denied = await app.inject({ url: '/me' });
const spec = await app.inject({ url: '/api/openapi.json' });
void createCsrfVerifier; void MemorySessionStore;
const jwt = new JwtBearer<{ sub: string }>({ jwksUrl: 'https://issuer.example/jwks', issuer: 'i', audience: 'a', algorithms: ['ES256'] });
const sub: AuthOf<typeof jwt>['sub'] = 'x';
void sub;
console.log(JSON.stringify([ok.statusCode, ok.json(), denied.statusCode, spec.json().components.securitySchemes, jwt.securityScheme]));
await app.close();
`;

describe('published package', () => {
  it('packs, type-checks and runs as a dependency', () => {
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', project], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const tarball = join(project, packed.trim().split('\n').at(-1) ?? '');
    const target = join(project, 'node_modules', 'vouch');
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);

    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', type: 'module' }),
    );
    writeFileSync(join(project, 'main.ts'), consumer);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project],
      {
        cwd: project,
        encoding: 'utf8',
      },
    );
    const output = execFileSync(process.execPath, [join(project, 'out', 'main.js')], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(output), [
      200,
      { id: 3 },
      401,
      { bearerAuth: { type: 'http', scheme: 'bearer' } },
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    ]);
  });
});
