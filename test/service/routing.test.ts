// Which auth applies where: the events router's own auth over the API-wide Bearer, public routes
// (health, the description, the docs page), authentication before the body, the IP allow-list.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import {
  addApplication,
  addUser,
  basic,
  bearer,
  getToken,
  login,
  startService,
} from './helpers.js';

// Bug: service/store/sqlite/to-store-error.ts builds StoreUnavailableError with an internal
// message ("database closed", "database unavailable (SQLITE_BUSY)"), and vouch sends an error's
// message as the detail, so the 503 body reveals the engine's state instead of contract §5's
// {"detail":"Service Unavailable"}.
const HEADER_KEY = 'APIKey realm="api", in="header", name="X-API-Key"';

describe('the events router (auth: API key in X-API-Key)', () => {
  it('GET /api/events and /api/events/2 answer JSON with X-API-Key', async (t) => {
    const service = await startService(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const all = await service.fetch('/api/events', { headers: { 'x-api-key': key } });
    assert.equal(all.status, 200);
    assert.match(all.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(all.headers.get('cache-control'), 'private');
    const events = (await all.json()) as { id: number }[];
    assert.deepEqual(
      events.map((event) => event.id),
      [1, 2, 3],
    );
    const one = await service.fetch('/api/events/2', { headers: { 'x-api-key': key } });
    assert.equal(one.status, 200);
    assert.deepEqual(await one.json(), { id: 2, title: 'Security review', date: '2026-03-02' });
  });

  for (const path of ['/api/events', '/api/events/2']) {
    it(`${path} answers 401 to a valid Bearer token alone: the router's auth replaces the API's`, async (t) => {
      const service = await startService(t);
      await addUser(service.store, 'alice', 'wonderland');
      const token = await getToken(service, 'alice', 'wonderland');
      assert.equal((await service.fetch('/api/bearer', { headers: bearer(token) })).status, 200);
      const response = await service.fetch(path, { headers: bearer(token) });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), HEADER_KEY);
      assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
    });
  }

  it('answers 404 for an event that does not exist and 400 for an id that is not a number', async (t) => {
    const service = await startService(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const missing = await service.fetch('/api/events/99', { headers: { 'x-api-key': key } });
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { detail: 'Not Found' });
    for (const id of ['abc', '0', '1.5']) {
      const bad = await service.fetch(`/api/events/${id}`, { headers: { 'x-api-key': key } });
      assert.equal(bad.status, 400, id);
    }
  });

  it('authenticates before validating: a bad id without a key answers 401', async (t) => {
    const service = await startService(t);
    const response = await service.fetch('/api/events/abc');
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), HEADER_KEY);
  });
});

describe('GET /api/health', () => {
  it('answers 200 {"status":"ok"} without credentials', async (t) => {
    const service = await startService(t);
    const response = await service.fetch('/api/health');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok' });
  });

  it('answers 503 with Retry-After once the store is closed', async (t) => {
    const service = await startService(t);
    await service.store.close();
    const response = await service.fetch('/api/health');
    assert.equal(response.status, 503);
    assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  it('answers the generic 503 body once the store is closed', async (t) => {
    const service = await startService(t);
    await service.store.close();
    const response = await service.fetch('/api/health');
    assert.deepEqual(await response.json(), { detail: 'Service Unavailable' });
  });
});

describe('an unreachable credential store', () => {
  async function closedStore(t: TestContext) {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const token = await getToken(service, 'alice', 'wonderland');
    const session = await login(service, 'alice', 'wonderland');
    const { key } = await addApplication(service.store, 'Billing service');
    await service.store.close();
    const requests: readonly [string, RequestInit][] = [
      ['/api/bearer', { headers: bearer(token) }],
      ['/api/pets', { headers: { cookie: session.cookie } }],
      ['/api/headerkey', { headers: { 'x-api-key': key } }],
      ['/api/basic', { headers: basic('alice', 'wonderland') }],
    ];
    return { service, requests };
  }

  it('answers 503 with Retry-After, not 401, on routes that consult it', async (t) => {
    const { service, requests } = await closedStore(t);
    for (const [path, init] of requests) {
      const response = await service.fetch(path, init);
      assert.equal(response.status, 503, path);
      assert.match(response.headers.get('retry-after') ?? '', /^\d+$/, path);
    }
  });

  it('answers the generic body {"detail":"Service Unavailable"} there', async (t) => {
    const { service, requests } = await closedStore(t);
    for (const [path, init] of requests) {
      const response = await service.fetch(path, init);
      assert.deepEqual(await response.json(), { detail: 'Service Unavailable' }, path);
    }
  });
});

describe('the description and the docs page', () => {
  it('are public, even with a credential that would be refused', async (t) => {
    const service = await startService(t);
    for (const headers of [{}, bearer('not-a-valid-token')]) {
      const description = await service.fetch('/api/openapi.json', { headers });
      assert.equal(description.status, 200);
      assert.match(description.headers.get('content-type') ?? '', /^application\/json/);
      const docs = await service.fetch('/api/docs/', { headers });
      assert.equal(docs.status, 200);
      assert.match(docs.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await docs.text(), /swagger/i);
    }
  });

  it('documents each operation with the security it enforces', async (t) => {
    const service = await startService(t);
    const document = (await (await service.fetch('/api/openapi.json')).json()) as {
      openapi: string;
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<
        string,
        Record<string, { security?: unknown; responses: Record<string, unknown> }>
      >;
    };
    assert.equal(document.openapi, '3.1.0');
    const operation = (path: string, method: string) => {
      const found = document.paths[path]?.[method];
      assert.ok(found !== undefined, `${method} ${path} is documented`);
      return found;
    };
    // Plain names, the API's own first, then as the operations first use them.
    assert.deepEqual(Object.keys(document.components.securitySchemes), [
      'bearer',
      'oauth2',
      'session',
      'basic',
      'apiKeyQuery',
      'apiKeyHeader',
      'apiKeyCookie',
      'keyQuery',
      'keyHeader',
    ]);
    assert.deepEqual(operation('/api/bearer', 'get').security, [{ bearer: [] }, { oauth2: [] }]);
    assert.deepEqual(operation('/api/admin/users', 'get').security, [
      { bearer: ['admin'] },
      { oauth2: ['admin'] },
      { basic: ['admin'] },
    ]);
    assert.deepEqual(document.components.securitySchemes.oauth2, {
      type: 'oauth2',
      flows: {
        password: {
          tokenUrl: '/api/token',
          scopes: { admin: 'List every user (GET /api/admin/users)' },
        },
      },
      description: 'Sign in with a username and password; the page then sends the token',
    });
    assert.ok(operation('/api/admin/users', 'get').responses['403'] !== undefined);
    assert.deepEqual(document.components.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: 'A token from POST /api/token',
    });

    const multiple = operation('/api/multiple', 'get').security as Record<string, unknown>[];
    assert.equal(multiple.length, 2);
    const [first, second] = multiple.map((requirement) => Object.keys(requirement));
    assert.equal(first?.length, 1);
    assert.equal(second?.length, 1);
    assert.deepEqual(document.components.securitySchemes[first[0]!], {
      type: 'apiKey',
      in: 'query',
      name: 'key',
      description: 'An application key in the key query parameter',
    });
    assert.deepEqual(document.components.securitySchemes[second[0]!], {
      type: 'apiKey',
      in: 'header',
      name: 'key',
      description: 'An application key in the key header',
    });

    for (const path of ['/api/token', '/api/auth/login']) {
      const open = operation(path, 'post');
      assert.deepEqual(open.security, [], path);
    }
    assert.equal(operation('/api/auth/login', 'post').responses['401'], undefined);
    // The token route's 401 is RFC 6749's invalid_client, never a missing credential of its own.
    const invalidClient = operation('/api/token', 'post').responses['401'] as {
      description: string;
    };
    assert.match(invalidClient.description, /invalid_client/);
    assert.deepEqual(operation('/api/health', 'get').security, []);

    const pets = operation('/api/pets', 'get');
    const [petsScheme] = Object.keys((pets.security as Record<string, unknown>[])[0] ?? {});
    assert.deepEqual(document.components.securitySchemes[petsScheme!], {
      type: 'apiKey',
      in: 'cookie',
      name: 'sessionid',
      description: 'The session cookie set by POST /api/auth/login',
    });
    assert.ok(pets.responses['401'] !== undefined);
    // 403 is documented where CSRF can apply: an unsafe method over the session.
    const logout = operation('/api/auth/logout', 'post');
    assert.deepEqual(logout.security, pets.security);
    assert.ok(logout.responses['401'] !== undefined);
    assert.ok(logout.responses['403'] !== undefined);
    assert.equal(pets.responses['403'], undefined, 'GET is never CSRF-checked');

    for (const path of ['/api/events', '/api/events/{id}']) {
      assert.deepEqual(operation(path, 'get').security, [{ apiKeyHeader: [] }]);
    }
    assert.equal(document.paths['/api/events/'], undefined, 'no trailing slash');
    assert.ok(operation('/api/basic', 'get').responses['429'] !== undefined);
  });

  it('groups every operation under a tag and describes every response', async (t) => {
    const service = await startService(t);
    const document = (await (await service.fetch('/api/openapi.json')).json()) as {
      tags: { name: string }[];
      paths: Record<
        string,
        Record<string, { tags?: string[]; responses: Record<string, { description?: string }> }>
      >;
    };
    const tags = document.tags.map((tag) => tag.name);
    assert.deepEqual(tags, ['examples', 'sign-in', 'events', 'admin', 'service']);
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.equal(operation.tags?.length, 1, `${where} has one tag`);
        assert.ok(tags.includes(operation.tags[0]!), where);
        for (const [status, response] of Object.entries(operation.responses)) {
          assert.ok(
            response.description !== undefined && response.description !== 'Default Response',
            `${where} ${status} is described`,
          );
        }
      }
    }
  });
});

describe('authentication before the body', () => {
  const bodies: readonly [string, Record<string, string>, string][] = [
    ['a 3 MB body', { 'content-type': 'application/json' }, `"${'x'.repeat(3_000_000)}"`],
    ['a malformed JSON body', { 'content-type': 'application/json' }, '{"username":'],
    ['an unsupported content type', { 'content-type': 'application/x-unknown' }, 'x'],
  ];
  for (const [name, headers, body] of bodies) {
    it(`an unauthenticated POST with ${name} to a protected route answers 401`, async (t) => {
      const service = await startService(t);
      const response = await service.fetch('/api/auth/logout', { method: 'POST', headers, body });
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
    });
  }
});

describe('GET /api/ipwhiltelist', () => {
  const cases: readonly [string, NodeJS.ProcessEnv, Record<string, string>, number, string?][] = [
    ['from 127.0.0.1 with the default allow-list', {}, {}, 200, '127.0.0.1'],
    [
      'from 127.0.0.1 with an allow-list of 127.0.0.0/8',
      { IP_ALLOWLIST: '127.0.0.0/8' },
      {},
      200,
      '127.0.0.1',
    ],
    [
      'from 127.0.0.1 with an allow-list that excludes loopback',
      { IP_ALLOWLIST: '10.0.0.1' },
      {},
      401,
    ],
    [
      'forwarded for 10.0.0.1 by a trusted loopback proxy, 10.0.0.1 allowed',
      { IP_ALLOWLIST: '10.0.0.1', TRUST_PROXY: 'loopback' },
      { 'x-forwarded-for': '10.0.0.1' },
      200,
      '10.0.0.1',
    ],
    [
      'forwarded for 10.0.0.1 without TRUST_PROXY: the header is ignored',
      { IP_ALLOWLIST: '10.0.0.1' },
      { 'x-forwarded-for': '10.0.0.1' },
      401,
    ],
    [
      'forwarded for 10.0.0.1 by a trusted proxy, only loopback allowed',
      { TRUST_PROXY: '127.0.0.1' },
      { 'x-forwarded-for': '10.0.0.1' },
      401,
    ],
    [
      'forwarded for 127.0.0.1 without TRUST_PROXY, only 10.0.0.1 allowed',
      { IP_ALLOWLIST: '10.0.0.1' },
      { 'x-forwarded-for': '127.0.0.1' },
      401,
    ],
  ];
  for (const [name, env, headers, status, address] of cases) {
    it(`answers ${status} ${name}`, async (t) => {
      const service = await startService(t, { env });
      const response = await service.fetch('/api/ipwhiltelist', { headers });
      assert.equal(response.status, status);
      const text = await response.text();
      if (address !== undefined) {
        assert.ok(text.includes(address), text);
        // The answer names the client: a proxy's shared cache must not hand it to another.
        assert.equal(response.headers.get('cache-control'), 'private');
      } else assert.deepEqual(JSON.parse(text), { detail: 'Unauthorized' });
    });
  }
});
