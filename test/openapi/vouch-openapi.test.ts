import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  allOf,
  APIKeyCookie,
  APIKeyHeader,
  APIKeyQuery,
  authFunction,
  HttpBasic,
  HttpBearer,
  MemorySessionStore,
  SessionAuth,
} from '../../src/index.js';
import { router, vouch } from '../../src/fastify/index.js';
import { vouchOpenapi, type VouchOpenapiOptions } from '../../src/fastify/openapi/index.js';
import { build, testCsrf } from '../helpers/build.js';

const bearer = new HttpBearer({ authenticate: (_request, token) => token });
const basic = new HttpBasic({ authenticate: (_request, username) => username });
const queryKey = new APIKeyQuery({ paramName: 'api_key', authenticate: (_r, key) => key });
const headerKey = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: (_r, key) => key });
const cookieKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: (_r, key) => key });
const defaultQueryKey = new APIKeyQuery({ authenticate: (_r, key) => key });
const defaultHeaderKey = new APIKeyHeader({ authenticate: (_r, key) => key });
const session = new SessionAuth({ store: new MemorySessionStore<string>() });
const ipAllowList = authFunction((request) => (request.ip === '127.0.0.1' ? request.ip : null), {
  name: 'ipAllowList',
  securityScheme: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Forwarded-For',
    description: 'by address',
  },
});
const undocumented = (request: { ip: string }) => request.ip;

const ok = async () => 'ok';

/** The illustrated API (contract §7) and more: every kind, lists, groups, routers. */
async function buildApi(
  t: TestContext,
  options: VouchOpenapiOptions = {},
): Promise<FastifyInstance> {
  const app = await build(t, { auth: bearer, csrf: testCsrf });
  await app.register(vouchOpenapi, {
    openapi: { info: { title: 'Illustrated API', version: '1.0.0' } },
    ...options,
  });
  app.get('/api/pets', { auth: session }, ok);
  app.post('/api/pets', { auth: session }, ok);
  app.post('/api/pets/exempt', { auth: session, csrf: false }, ok);
  app.get('/api/bearer', ok);
  app.get('/api/apikey', { auth: queryKey }, ok);
  app.get('/api/headerkey', { auth: headerKey }, ok);
  app.get('/api/cookiekey', { auth: cookieKey }, ok);
  app.delete('/api/cookiekey', { auth: cookieKey }, ok);
  app.get('/api/basic', { auth: basic }, ok);
  app.get('/api/multiple', { auth: [defaultQueryKey, defaultHeaderKey] }, ok);
  app.get('/api/both', { auth: [allOf(headerKey, bearer), session] }, ok);
  app.get('/api/ipwhiltelist', { auth: ipAllowList }, ok);
  app.get('/api/undocumented', { auth: undocumented }, ok);
  app.get('/api/mixed', { auth: [undocumented, basic] }, ok);
  app.post('/api/token', { auth: null }, ok);
  app.get(
    '/api/own401',
    {
      schema: {
        response: {
          200: { type: 'string' },
          401: {
            description: 'Token expired',
            type: 'object',
            properties: { error: { type: 'string' } },
          },
        },
      },
    },
    ok,
  );

  const nested = router({ auth: cookieKey }, async (r) => {
    r.get('/', ok);
    r.post('/', ok);
  });
  const events = router({ auth: headerKey }, async (r) => {
    r.get('/', ok);
    r.get('/:id', ok);
    await r.register(nested, { prefix: '/nested' });
    await r.register(
      async (plain) => {
        plain.get('/inherited', ok);
      },
      { prefix: '/plain' },
    );
  });
  await app.register(events, { prefix: '/api/events' });
  await app.register(events, { prefix: '/api/basic-events', auth: basic });
  await app.register(events, { prefix: '/api/public-events', auth: null });
  return app;
}

interface Operation {
  security?: unknown;
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
  summary?: string;
}
type Document = {
  openapi: string;
  info: unknown;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

async function description(app: FastifyInstance): Promise<Document> {
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  return response.json();
}

function operation(doc: Document, path: string, method: string): Operation {
  const found = doc.paths[path]?.[method];
  assert.ok(found, `${method.toUpperCase()} ${path} is documented`);
  return found;
}

const bearerReq = [{ bearerAuth: [] }];
const headerReq = [{ 'apiKeyHeader_X-API-Key': [] }];
const cookieReq = [{ 'apiKeyCookie_X-API-KEY': [] }];
const basicReq = [{ basicAuth: [] }];
const sessionReq = [{ sessionAuth: [] }];

// Every documented operation: its exact `security` ([]: no credential) and its error statuses.
const expected: [path: string, method: string, security: unknown, errors: string[]][] = [
  ['/api/pets', 'get', sessionReq, ['400', '401', '503']],
  ['/api/pets', 'post', sessionReq, ['400', '401', '403', '503']],
  ['/api/pets/exempt', 'post', sessionReq, ['400', '401', '503']],
  ['/api/bearer', 'get', bearerReq, ['400', '401']],
  ['/api/apikey', 'get', [{ apiKeyQuery_api_key: [] }], ['400', '401']],
  ['/api/headerkey', 'get', headerReq, ['400', '401']],
  ['/api/cookiekey', 'get', cookieReq, ['400', '401']],
  ['/api/cookiekey', 'delete', cookieReq, ['400', '401', '403']],
  ['/api/basic', 'get', basicReq, ['400', '401']],
  ['/api/multiple', 'get', [{ apiKeyQuery_key: [] }, { apiKeyHeader_key: [] }], ['400', '401']],
  [
    '/api/both',
    'get',
    [{ 'apiKeyHeader_X-API-Key': [], bearerAuth: [] }, { sessionAuth: [] }],
    ['400', '401', '503'],
  ],
  ['/api/ipwhiltelist', 'get', [{ ipAllowList: [] }], ['401']],
  ['/api/undocumented', 'get', [], ['401']],
  ['/api/mixed', 'get', basicReq, ['400', '401']],
  ['/api/token', 'post', [], []],
  ['/api/own401', 'get', bearerReq, ['400', '401']],
  ['/api/events/', 'get', headerReq, ['400', '401']],
  ['/api/events/{id}', 'get', headerReq, ['400', '401']],
  ['/api/events/nested/', 'get', cookieReq, ['400', '401']],
  ['/api/events/nested/', 'post', cookieReq, ['400', '401', '403']],
  ['/api/events/plain/inherited', 'get', headerReq, ['400', '401']],
  ['/api/basic-events/', 'get', basicReq, ['400', '401']],
  ['/api/basic-events/{id}', 'get', basicReq, ['400', '401']],
  ['/api/basic-events/nested/', 'get', cookieReq, ['400', '401']],
  ['/api/basic-events/nested/', 'post', cookieReq, ['400', '401', '403']],
  ['/api/basic-events/plain/inherited', 'get', basicReq, ['400', '401']],
  ['/api/public-events/', 'get', [], []],
  ['/api/public-events/{id}', 'get', [], []],
  ['/api/public-events/nested/', 'get', cookieReq, ['400', '401']],
  ['/api/public-events/nested/', 'post', cookieReq, ['400', '401', '403']],
  ['/api/public-events/plain/inherited', 'get', [], []],
];

describe('the description at /api/openapi.json (contract §8)', () => {
  it('is OpenAPI 3.1 and validates', async (t) => {
    const doc = await description(await buildApi(t));
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.info, { title: 'Illustrated API', version: '1.0.0' });
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  it('lists every scheme in use, in the contract shapes, under its unique name', async (t) => {
    const doc = await description(await buildApi(t));
    assert.deepEqual(doc.components.securitySchemes, {
      'apiKeyCookie_X-API-KEY': { type: 'apiKey', in: 'cookie', name: 'X-API-KEY' },
      'apiKeyHeader_X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      apiKeyHeader_key: { type: 'apiKey', in: 'header', name: 'key' },
      apiKeyQuery_api_key: { type: 'apiKey', in: 'query', name: 'api_key' },
      apiKeyQuery_key: { type: 'apiKey', in: 'query', name: 'key' },
      basicAuth: { type: 'http', scheme: 'basic' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
      ipAllowList: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Forwarded-For',
        description: 'by address',
      },
      sessionAuth: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
    });
  });

  it('documents exactly the operations of the API, not the docs routes', async (t) => {
    const doc = await description(await buildApi(t));
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    assert.deepEqual(
      documented.sort(),
      expected.map(([path, method]) => `${method} ${path}`).sort(),
    );
  });

  it("gives each operation its security, in order, and vouch's error responses", async (t) => {
    const doc = await description(await buildApi(t));
    for (const [path, method, security, errors] of expected) {
      const op = operation(doc, path, method);
      const where = `${method.toUpperCase()} ${path}`;
      assert.deepEqual(op.security, security, `${where} security`);
      const statuses = Object.keys(op.responses).filter((status) => status !== '200');
      assert.deepEqual(statuses, errors, `${where} responses`);
    }
  });

  it('documents the 401 with its { detail } body and WWW-Authenticate', async (t) => {
    const doc = await description(await buildApi(t));
    const unauthorized = operation(doc, '/api/both', 'get').responses['401'] as unknown;
    assert.deepEqual(unauthorized, {
      description: 'Unauthorized: no authenticator accepted the request',
      headers: {
        'WWW-Authenticate': {
          schema: { type: 'string' },
          description:
            'One line per authenticator tried, among: `APIKey realm="api", in="header", name="X-API-Key"`, `Bearer realm="api"`',
        },
      },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { detail: { type: 'string' } },
            required: ['detail'],
          },
        },
      },
    });
    const csrf = operation(doc, '/api/pets', 'post').responses['403']!;
    assert.match(csrf.description, /^CSRF check Failed/);
  });

  it('keeps a 401 the route documents itself, and its own 200', async (t) => {
    const doc = await description(await buildApi(t));
    const responses = operation(doc, '/api/own401', 'get').responses;
    assert.equal(responses['401']!.description, 'Token expired');
    assert.deepEqual(Object.keys(responses), ['200', '400', '401']);
    assert.deepEqual((responses['200'] as unknown as { content: unknown }).content, {
      'application/json': { schema: { type: 'string' } },
    });
    assert.deepEqual(operation(doc, '/api/bearer', 'get').responses['200'], {
      description: 'Default Response',
    });
  });

  it("composes the user's transform and transformObject", async (t) => {
    const app = await buildApi(t, {
      transform: ({ schema, url }) => ({ schema: { ...schema, summary: `user ${url}` }, url }),
      transformObject: (document) => ({
        ...('openapiObject' in document ? document.openapiObject : {}),
        'x-schemes': Object.keys(
          ('openapiObject' in document && document.openapiObject.components?.securitySchemes) || {},
        ).length,
      }),
    });
    const doc = (await description(app)) as Document & { 'x-schemes': number };
    const op = operation(doc, '/api/bearer', 'get');
    assert.equal(op.summary, 'user /api/bearer');
    assert.deepEqual(op.security, bearerReq);
    assert.deepEqual(Object.keys(op.responses), ['200', '400', '401']);
    assert.equal(doc['x-schemes'], 9);
  });

  it('keeps schemes and top-level security the document declares, public routes opting out', async (t) => {
    const app = await build(t, { auth: bearer, csrf: false });
    await app.register(vouchOpenapi, {
      jsonPath: '/openapi.json',
      openapi: {
        security: [{ bearerAuth: [] }],
        components: {
          securitySchemes: {
            partner: {
              type: 'openIdConnect',
              openIdConnectUrl: 'https://id.test/.well-known/openid-configuration',
            },
          },
        },
      },
    });
    app.get('/private', ok);
    app.get('/public', { auth: null }, ok);
    await app.ready();
    const response = await app.inject('/openapi.json');
    const doc = response.json<Document & { security: unknown }>();
    assert.deepEqual(doc.security, bearerReq);
    assert.deepEqual(Object.keys(doc.components.securitySchemes), ['partner', 'bearerAuth']);
    assert.deepEqual(operation(doc, '/private', 'get').security, bearerReq);
    assert.deepEqual(operation(doc, '/public', 'get').security, []);
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });
});

describe('the docs page at /api/docs (contract §8)', () => {
  it('is public while the API-wide auth is Bearer', async (t) => {
    const app = await buildApi(t);
    assert.equal((await app.inject('/api/bearer')).statusCode, 401);
    for (const url of ['/api/openapi.json', '/api/docs/json', '/api/docs/yaml']) {
      assert.equal((await app.inject(url)).statusCode, 200, url);
    }
    let response = await app.inject('/api/docs');
    for (
      let hops = 0;
      hops < 3 && response.statusCode >= 300 && response.statusCode < 400;
      hops++
    ) {
      response = await app.inject(String(response.headers.location));
    }
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.match(response.body, /<div id="swagger-ui"><\/div>/);
    assert.equal((await app.inject('/api/docs/')).statusCode, 200);
    assert.equal((await app.inject('/api/docs/static/index.html')).statusCode, 302);
  });

  it('serves its assets itself: no CDN', async (t) => {
    const app = await buildApi(t);
    const page = (await app.inject('/api/docs')).body;
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(assets.length >= 5);
    for (const asset of assets) {
      assert.match(asset, /^\/api\/docs\/static\//, `${asset} is served locally`);
      const response = await app.inject(asset);
      assert.equal(response.statusCode, 200, asset);
      assert.ok(response.body.length > 0, asset);
    }
    assert.doesNotMatch(page, /https?:\/\//);
  });

  it('keeps tokens and keys across reloads, sends X-CSRFToken and signs DPoP proofs', async (t) => {
    const app = await buildApi(t);
    const script = await app.inject('/api/docs/static/swagger-initializer.js');
    assert.equal(script.statusCode, 200);
    assert.match(script.body, /"persistAuthorization":true/);
    assert.match(
      script.body,
      /"plugins":\[function vouchPersistTokensOnly\(\) \{[^]*\},function vouchSenderConstrainedAuthorization\(\) \{/,
    );
    assert.match(
      script.body,
      /"requestInterceptor":function vouchRequestInterceptors\(request\) \{\n {2}var steps = \[function vouchCsrfInterceptor\(request\) \{[^]*\},\nfunction vouchDpopInterceptor\(request\) \{/,
    );
    assert.match(script.body, /var cookieName = "csrftoken";/);
    assert.match(script.body, /request\.headers\["X-CSRFToken"\] = value;/);
    assert.match(script.body, /"validatorUrl":null/);
  });

  it('loads, and names in its bar, the description at jsonPath: one URL', async (t) => {
    const app = await buildApi(t);
    const script = (await app.inject('/api/docs/static/swagger-initializer.js')).body;
    assert.match(script, /"urls":\[\{"url":"\/api\/openapi.json","name":"\/api\/openapi.json"\}\]/);
    const elsewhere = await build(t, { csrf: false });
    await elsewhere.register(vouchOpenapi, { jsonPath: '/openapi.json', docsPath: '/docs' });
    const moved = (await elsewhere.inject('/docs/static/swagger-initializer.js')).body;
    assert.match(moved, /"urls":\[\{"url":"\/openapi.json","name":"\/openapi.json"\}\]/);
  });

  it("names the cookie and header as the vouch plugin's CSRF settings do", async (t) => {
    const app = await build(t, {
      csrf: { ...testCsrf, cookieName: 'xsrf', headerName: 'X-XSRF' },
    });
    await app.register(vouchOpenapi, { docsPath: '/docs', uiConfig: { docExpansion: 'none' } });
    const script = (await app.inject('/docs/static/swagger-initializer.js')).body;
    assert.match(script, /var cookieName = "xsrf";/);
    assert.match(script, /request\.headers\["X-XSRF"\]/);
    assert.match(script, /"docExpansion":"none"/);
    assert.match(script, /"persistAuthorization":true/);
  });

  it('runs uiConfig plugins after the one that keeps passwords out of localStorage', async (t) => {
    const app = await buildApi(t, {
      uiConfig: {
        plugins: [
          function userPlugin() {
            return {};
          },
        ],
      },
    });
    const script = (await app.inject('/api/docs/static/swagger-initializer.js')).body;
    assert.match(
      script,
      /"plugins":\[function vouchPersistTokensOnly\(\) \{[^]*\},function vouchSenderConstrainedAuthorization\(\) \{[^]*\},function userPlugin\(\)/,
    );
  });

  it('lets a uiConfig requestInterceptor replace the CSRF and DPoP one', async (t) => {
    const app = await buildApi(t, {
      uiConfig: { requestInterceptor: ((request: unknown) => request) as never },
    });
    const script = (await app.inject('/api/docs/static/swagger-initializer.js')).body;
    assert.doesNotMatch(script, /vouchCsrfInterceptor|vouchDpopInterceptor/);
  });
});

describe('start-up errors (contract §2, §8)', () => {
  it('rejects two different authenticators forced under one scheme name, naming the route', async (t) => {
    const app = Fastify();
    // A failed start makes close() reject with the same error, which is checked below.
    t.after(() => app.close().catch(() => undefined));
    await app.register(vouch, { csrf: false });
    await app.register(vouchOpenapi);
    // Declared in a plugin, the routes are added while the app starts: ready() rejects.
    void app.register(async (scope) => {
      const headerDup = new APIKeyHeader({ name: 'dup', paramName: 'A', authenticate: ok });
      scope.get('/dup-a', { auth: headerDup }, ok);
      scope.get('/dup-b', { auth: new APIKeyQuery({ name: 'dup', authenticate: ok }) }, ok);
    });
    await assert.rejects(
      async () => app.ready(),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'VOUCH_ERR_CONFIGURATION');
        assert.match(error.message, /GET \/dup-b/);
        assert.match(error.message, /"dup"/);
        return true;
      },
    );
  });

  it('needs the vouch plugin', async (t) => {
    const app = Fastify();
    t.after(() => app.close());
    await assert.rejects(async () => {
      await app.register(vouchOpenapi);
    }, /vouch/);
  });
});
