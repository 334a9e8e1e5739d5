// The README's example is this folder's quickstart.ts, verbatim: this test keeps the two equal
// and proves the example does what the README says.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { runExample } from '../test/helpers/example.js';

process.env.LOG_LEVEL = 'silent';
process.env.API_TOKEN = 'quickstart-token';
const { app } = await import('./quickstart.js');
after(() => app.close());

describe('README quickstart', () => {
  it('is embedded in the README verbatim', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const source = await readFile(new URL('./quickstart.ts', import.meta.url), 'utf8');
    assert.ok(
      readme.includes('```ts\n' + source + '```'),
      'README.md embeds examples/quickstart.ts',
    );
    const code = source
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('import '));
    assert.ok(code.length <= 22, `the example stays about twenty lines (${code.length})`);
  });

  it('protects every route with the Bearer token by default', async () => {
    const denied = await app.inject({ url: '/api/bearer' });
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.headers['www-authenticate'], 'Bearer realm="api"');
    const allowed = await app.inject({
      url: '/api/bearer',
      headers: { authorization: 'Bearer quickstart-token' },
    });
    assert.deepEqual(allowed.json(), { token: 'admin' });
  });

  it('lets a route choose another authenticator, or none', async () => {
    const key = await app.inject({ url: '/api/headerkey', headers: { 'x-api-key': 'demo-key' } });
    assert.equal(key.body, 'Hello, demo app');
    const bearerOnly = await app.inject({
      url: '/api/headerkey',
      headers: { authorization: 'Bearer quickstart-token' },
    });
    assert.equal(bearerOnly.statusCode, 401);
    assert.deepEqual((await app.inject({ url: '/api/health' })).json(), { status: 'ok' });
  });

  it('documents the schemes and serves the docs page without credentials', async () => {
    const description = await app.inject({ url: '/api/openapi.json' });
    assert.equal(description.statusCode, 200);
    const document = description.json<{
      paths: Record<string, { get: { security?: unknown } }>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    assert.deepEqual(document.paths['/api/bearer']?.get.security, [{ bearerAuth: [] }]);
    assert.deepEqual(document.paths['/api/headerkey']?.get.security, [
      { 'apiKeyHeader_X-API-Key': [] },
    ]);
    assert.deepEqual(document.paths['/api/health']?.get.security, []);
    assert.deepEqual(document.components.securitySchemes, {
      'apiKeyHeader_X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
    const docs = await app.inject({ url: '/api/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger-ui/i);
  });

  it('serves on its port when run as the README says, with npx tsx', async (t) => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    assert.ok(readme.includes('`npx tsx examples/quickstart.ts` serves it on port 8000'));
    const base = await runExample(t, 'quickstart.ts', { API_TOKEN: 'change-me' });
    const answered = await fetch(`${base}/api/bearer`);
    assert.equal(answered.status, 401);
    assert.equal(answered.headers.get('www-authenticate'), 'Bearer realm="api"');
    const allowed = await fetch(`${base}/api/bearer`, {
      headers: { authorization: 'Bearer change-me' },
    });
    assert.deepEqual(await allowed.json(), { token: 'admin' });
    assert.equal((await fetch(`${base}/api/docs`)).status, 200);
  });
});
