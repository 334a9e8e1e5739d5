// The Hono, Express and NestJS examples, each run as a program the way its reader would: the same
// API, the same answers, and a description and docs page built from the declarations that enforce
// it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runExample } from '../test/helpers/example.js';

interface Described {
  paths: Record<string, { get: { security?: unknown; responses: Record<string, unknown> } }>;
  components: { securitySchemes: Record<string, unknown> };
}

for (const file of ['hono.ts', 'express.ts', 'nestjs.ts']) {
  describe(`examples/${file}`, () => {
    it('enforces, documents and serves its docs page', async (t) => {
      const origin = await runExample(t, file, { API_TOKEN: 'example-token' });
      const get = (path: string, headers: Record<string, string> = {}) =>
        fetch(`${origin}${path}`, { headers });

      const denied = await get('/api/bearer');
      assert.equal(denied.status, 401);
      assert.equal(denied.headers.get('www-authenticate'), 'Bearer realm="api"');
      assert.deepEqual(await denied.json(), { detail: 'Unauthorized' });
      const bearer = await get('/api/bearer', { authorization: 'Bearer example-token' });
      assert.deepEqual(await bearer.json(), { token: 'admin' });
      const key = await get('/api/headerkey', { 'x-api-key': 'demo-key' });
      assert.deepEqual(await key.json(), { hello: 'demo app' });
      assert.equal(key.headers.get('cache-control'), 'private');
      const keyless = await get('/api/headerkey', { authorization: 'Bearer example-token' });
      assert.equal(keyless.status, 401, 'the route takes the API key only');
      assert.deepEqual(await (await get('/api/health')).json(), { status: 'ok' });

      const description = (await (await get('/api/openapi.json')).json()) as Described;
      assert.deepEqual(description.paths['/api/bearer']?.get.security, [{ bearerAuth: [] }]);
      assert.deepEqual(description.paths['/api/headerkey']?.get.security, [
        { 'apiKeyHeader_X-API-Key': [] },
      ]);
      assert.deepEqual(description.paths['/api/health']?.get.security, []);
      assert.deepEqual(Object.keys(description.paths['/api/bearer'].get.responses), [
        '200',
        '400',
        '401',
      ]);
      assert.deepEqual(description.components.securitySchemes, {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        'apiKeyHeader_X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      });

      // The page and every script and stylesheet it loads come from the service, without
      // credentials (no CDN: the page must work offline).
      const page = await get('/api/docs'); // Express redirects to /api/docs/
      assert.equal(page.status, 200);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map(
        ([, url]) => url!,
      );
      assert.ok(
        assets.some((url) => url.endsWith('swagger-ui-bundle.js')),
        html,
      );
      for (const asset of assets) {
        const url = new URL(asset, page.url);
        assert.equal(url.origin, origin, `${asset} is served by the example`);
        assert.equal((await fetch(url)).status, 200, asset);
      }
    });
  });
}
