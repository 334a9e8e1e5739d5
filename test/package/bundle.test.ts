// What a bundler keeps of vouch for an application: only the parts it uses. The adapters import
// the CSRF protection's type only, so an application that never builds one bundles none of it.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');

/** The modules esbuild reads to bundle `source` (an application's entry) for any runtime. */
async function bundledModules(source: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

const fromCsrf = (modules: readonly string[]) =>
  modules.filter((path) => path.startsWith('src/csrf/'));

describe('bundles of a Hono application', () => {
  it('with Bearer only, hold none of the CSRF code', async () => {
    const modules = await bundledModules(`
      import { Hono } from 'hono';
      import { HttpBearer } from './src/index.ts';
      import { requireAuth } from './src/hono/index.ts';
      const bearer = new HttpBearer({ authenticate: (_request, token) => token });
      export const app = new Hono().get('/me', requireAuth(bearer), (c) => c.json(c.get('auth')));
    `);
    assert.ok(modules.includes('src/hono/require-auth.ts'), 'the adapter is in the bundle');
    assert.deepEqual(fromCsrf(modules), []);
  });

  it('with sessions, hold the CSRF protection they are given', async () => {
    const modules = await bundledModules(`
      import { Hono } from 'hono';
      import { createCsrfVerifier } from './src/csrf/index.ts';
      import { requireAuth } from './src/hono/index.ts';
      import { MemorySessionStore, SessionAuth } from './src/session/index.ts';
      const session = new SessionAuth({ store: new MemorySessionStore() });
      const csrf = createCsrfVerifier({ secret: 'a-secret-of-some-length-0123456789', trustedOrigins: [] });
      export const app = new Hono().post('/pets', requireAuth(session, { csrf }), (c) => c.text('ok'));
    `);
    assert.ok(fromCsrf(modules).includes('src/csrf/csrf-protection.ts'));
  });
});
