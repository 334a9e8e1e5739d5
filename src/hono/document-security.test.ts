import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Hono } from 'hono';
import { APIKeyHeader, HttpBearer, MemorySessionStore, SessionAuth } from '../index.js';
import { createCsrfVerifier } from '../csrf/csrf-protection.js';
import { documentSecurity, requireAuth } from './index.js';

const csrf = createCsrfVerifier({
  secret: 'test-secret-of-sufficient-length-0123456789',
  trustedOrigins: [],
});
const bearer = new HttpBearer({ tokens: new Map([['t', 'ann']]) });
const headerKey = new APIKeyHeader({ paramName: 'X-API-Key', keys: new Map([['k', 'app']]) });
const session = new SessionAuth({ store: new MemorySessionStore<string>() });

const ok = {
  200: { description: 'OK', content: { 'application/json': { schema: z.object({}) } } },
};
const route = (
  method: 'get' | 'post',
  path: string,
  middleware?: ReturnType<typeof requireAuth>,
  responses: Parameters<typeof createRoute>[0]['responses'] = ok,
) => createRoute({ method, path, responses, ...(middleware && { middleware: [middleware] }) });

/** Every kind of placement: app-wide on a prefix, per route, null, a sub-app, outside vouch. */
function illustrated() {
  const app = new OpenAPIHono();
  app.use('/api/*', requireAuth(bearer));
  const json = (c: { json: (body: object) => Response }) => c.json({});
  app.openapi(route('get', '/api/pets'), json);
  app.openapi(route('get', '/api/pets/{id}', requireAuth([headerKey, bearer])), json);
  app.openapi(route('get', '/api/public', requireAuth(null)), json);
  app.openapi(route('post', '/api/session', requireAuth(session, { csrf })), json);
  const own401 = { ...ok, 401: { description: 'Who are you?' } };
  app.openapi(route('get', '/api/own-401', undefined, own401), json);
  const sub = new OpenAPIHono();
  sub.use('*', requireAuth(headerKey));
  sub.openapi(route('get', '/items'), json);
  app.route('/api/sub', sub);
  app.openapi(route('get', '/health'), json);
  return app;
}

const info = { title: 'Pets', version: '1.0.0' };

describe('documentSecurity on Hono', () => {
  it('documents each operation with the requireAuth that decides it', () => {
    const app = illustrated();
    const given = app.getOpenAPI31Document({ openapi: '3.1.0', info });
    const before = structuredClone(given);
    const document = documentSecurity(app, given);
    assert.deepEqual(given, before, 'the given document is not changed');

    const op = (path: string, method = 'get') =>
      (document.paths as Record<string, Record<string, Record<string, unknown>>>)[path]![method]!;
    assert.deepEqual(op('/api/pets').security, [{ bearerAuth: [] }]);
    assert.deepEqual(op('/api/pets/{id}').security, [
      { 'apiKeyHeader_X-API-Key': [] },
      { bearerAuth: [] },
    ]);
    assert.deepEqual(op('/api/public').security, [], 'public: an explicit security: []');
    assert.deepEqual(Object.keys(op('/api/public').responses as object), ['200']);
    assert.deepEqual(op('/api/session', 'post').security, [{ sessionAuth: [] }]);
    assert.deepEqual(Object.keys(op('/api/session', 'post').responses as object), [
      '200',
      '400',
      '401',
      '403',
      '503',
    ]);
    assert.deepEqual(op('/api/sub/items').security, [{ 'apiKeyHeader_X-API-Key': [] }]);
    const responses = op('/api/own-401').responses as Record<string, { description: string }>;
    assert.equal(responses['401']!.description, 'Who are you?', 'a documented status is kept');
    assert.match(
      JSON.stringify(op('/api/pets').responses),
      /One line per authenticator tried, among: `Bearer realm=\\"api\\"`/,
    );
    assert.equal(op('/health').security, undefined);
    assert.deepEqual(Object.keys(op('/health').responses as object), ['200']);
    assert.deepEqual(Object.keys(document.components?.securitySchemes ?? {}), [
      'bearerAuth',
      'apiKeyHeader_X-API-Key',
      'sessionAuth',
    ]);
  });

  it('produces a valid OpenAPI 3.1 description', async () => {
    const app = illustrated();
    const document = documentSecurity(app, app.getOpenAPI31Document({ openapi: '3.1.0', info }));
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  it('says security: [] on a public operation when the document requires security', () => {
    const app = illustrated();
    const given = app.getOpenAPI31Document({ openapi: '3.1.0', info, security: [{ x: [] }] });
    const document = documentSecurity(app, given);
    assert.deepEqual(document.paths?.['/api/public']?.get?.security, []);
  });

  it('documents a route of a plain Hono app, HEAD as its GET', () => {
    const app = new Hono();
    app.get('/pets', requireAuth(bearer), (c) => c.json([]));
    const document = documentSecurity(app, {
      openapi: '3.1.0',
      info,
      paths: { '/pets': { head: { responses: {} } } },
    });
    assert.deepEqual(document.paths['/pets'].head, {
      security: [{ bearerAuth: [] }],
      responses: document.paths['/pets'].head.responses,
    });
    assert.deepEqual(Object.keys(document.paths['/pets'].head.responses), ['400', '401']);
  });

  it('leaves alone an operation whose handler comes before any requireAuth', () => {
    const app = new Hono();
    app.get('/status', (c) => c.json({}));
    app.use('*', requireAuth(bearer));
    app.get('/pets', (c) => c.json([]));
    const paths = { '/status': { get: { responses: {} } }, '/pets': { get: { responses: {} } } };
    const document = documentSecurity(app, { paths });
    assert.deepEqual(document.paths['/status'].get, { responses: {} });
    assert.deepEqual((document.paths['/pets'].get as { security?: unknown }).security, [
      { bearerAuth: [] },
    ]);
  });

  it('lists the scopes an operation requires, and its 403', () => {
    const app = new Hono();
    app.get('/pets', requireAuth(bearer, { scopes: ['pets:read'] }), (c) => c.json([]));
    const document = documentSecurity(app, { paths: { '/pets': { get: { responses: {} } } } });
    const operation = document.paths['/pets'].get as { security?: unknown; responses: object };
    assert.deepEqual(operation.security, [{ bearerAuth: ['pets:read'] }]);
    assert.deepEqual(Object.keys(operation.responses), ['400', '401', '403']);
  });

  it('names a scheme name given to two different schemes', () => {
    const app = new Hono();
    const other = new HttpBearer({ tokens: new Map([['u', 'bob']]), description: 'Other' });
    app.get('/a', requireAuth(bearer), (c) => c.json([]));
    app.get('/b', requireAuth(other), (c) => c.json([]));
    const paths = { '/a': { get: { responses: {} } }, '/b': { get: { responses: {} } } };
    assert.throws(
      () => documentSecurity(app, { paths }),
      /GET \/b: security scheme name "bearerAuth"/,
    );
  });
});
