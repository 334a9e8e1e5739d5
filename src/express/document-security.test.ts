import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import express, { type RequestHandler } from 'express';
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
const json: RequestHandler = (_req, res) => {
  res.json({});
};

/** Every kind of placement: app-wide, per route, null, a Router, before vouch. */
function illustrated() {
  const app = express();
  app.get('/health', json);
  app.use(requireAuth(bearer));
  app.get('/api/pets', json);
  app.get('/api/pets/:id', requireAuth([headerKey, bearer]), json);
  app.get('/api/public', requireAuth(null), json);
  app.post('/api/session', requireAuth(session, { csrf }), json);
  app.get('/api/own-401', json);
  const items = express.Router();
  items.use(requireAuth(headerKey));
  items.get('/', json);
  app.use('/api/items', items);
  return app;
}

const ok = { 200: { description: 'OK' } };
const document = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1.0.0' },
  paths: {
    '/health': { get: { responses: ok } },
    '/api/pets': { get: { responses: ok }, head: { responses: ok } },
    '/api/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/api/public': { get: { responses: ok } },
    '/api/session': { post: { responses: ok } },
    '/api/own-401': { get: { responses: { ...ok, 401: { description: 'Who are you?' } } } },
    '/api/items': { get: { responses: ok } },
  },
};

type Operation = { security?: unknown; responses: Record<string, { description: string }> };

describe('documentSecurity on Express', () => {
  it('documents each operation with the requireAuth that decides it', () => {
    const before = structuredClone(document);
    const filled = documentSecurity(illustrated(), document);
    assert.deepEqual(document, before, 'the given document is not changed');
    const op = (path: string, method = 'get') =>
      (filled.paths as unknown as Record<string, Record<string, Operation>>)[path]![method]!;

    assert.equal(op('/health').security, undefined);
    assert.deepEqual(Object.keys(op('/health').responses), ['200']);
    assert.deepEqual(op('/api/pets').security, [{ bearerAuth: [] }]);
    assert.deepEqual(op('/api/pets', 'head').security, [{ bearerAuth: [] }]);
    assert.deepEqual(op('/api/pets/{id}').security, [
      { 'apiKeyHeader_X-API-Key': [] },
      { bearerAuth: [] },
    ]);
    assert.deepEqual(op('/api/public').security, [], 'public: an explicit security: []');
    assert.deepEqual(Object.keys(op('/api/public').responses), ['200']);
    assert.deepEqual(op('/api/session', 'post').security, [{ sessionAuth: [] }]);
    assert.deepEqual(Object.keys(op('/api/session', 'post').responses), [
      '200',
      '400',
      '401',
      '403',
      '503',
    ]);
    assert.equal(op('/api/own-401').responses['401']!.description, 'Who are you?');
    // The app's requireAuth(bearer) and the Router's follow each other: the Router's decides.
    assert.deepEqual(op('/api/items').security, [{ 'apiKeyHeader_X-API-Key': [] }]);
    assert.deepEqual(Object.keys(filled.components?.securitySchemes ?? {}), [
      'bearerAuth',
      'apiKeyHeader_X-API-Key',
      'sessionAuth',
    ]);
  });

  it('produces a valid OpenAPI 3.1 description', async () => {
    const filled = documentSecurity(illustrated(), document);
    const result = await new Validator().validate(filled);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  it('follows requests: past middleware that hands on, up to a param callback', () => {
    const app = express();
    app.use(requireAuth(bearer));
    app.use((_req, _res, next) => {
      next();
    });
    app.get('/open', requireAuth(null), json);
    app.param('id', (_req, _res, next) => {
      next();
    });
    app.get('/pets/:id', requireAuth(headerKey), json);
    const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
    const filled = documentSecurity(app, {
      paths: {
        '/open': { get: { responses: ok } },
        '/pets/{id}': { get: { parameters: id, responses: ok } },
      },
    });
    const paths = filled.paths as unknown as Record<string, { get: Operation }>;
    assert.deepEqual(paths['/open']!.get.security, []);
    assert.deepEqual(paths['/pets/{id}']!.get.security, [{ bearerAuth: [] }]);
  });

  it('leaves operations of a mounted app alone: its stacks are its own', () => {
    const app = express();
    const inner = express();
    inner.get('/x', requireAuth(bearer), json);
    app.use('/inner', inner);
    const filled = documentSecurity(app, { paths: { '/inner/x': { get: { responses: ok } } } });
    assert.deepEqual(filled.paths['/inner/x'].get, { responses: ok });
  });
});
