import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  allOf,
  APIKeyCookie,
  APIKeyHeader,
  APIKeyQuery,
  AuthenticationError,
  AuthorizationError,
  encodeBasicCredentials,
  HttpBasic,
  HttpBearer,
  MemorySessionStore,
  SessionAuth,
  StoreUnavailableError,
} from '../index.js';
import { build, testCsrf } from '../../test/helpers/build.js';
import { createCsrfVerifier } from '../csrf/csrf-protection.js';
import { exceptionHandler } from './exception-handlers.js';

const calls: string[] = [];
const bearer = new HttpBearer({
  authenticate: (_request, token) => {
    calls.push(`bearer:${token}`);
    return token === 'good-token' ? { user: 'ann' } : undefined;
  },
});
// The same checks by static credentials instead of hooks.
const staticBearer = new HttpBearer({ tokens: new Map([['good-token', { client: 'ci' }]]) });
const staticKey = new APIKeyHeader({ paramName: 'X-Partner-Key', keys: [['pk-1', 'partner']] });
const basic = new HttpBasic({
  authenticate: async (_request, username, password) => {
    calls.push(`basic:${username}`);
    return username === 'ann' && password === 'p:w' ? username : null;
  },
});
const queryKey = new APIKeyQuery({
  paramName: 'api_key',
  authenticate: (_request, key) => (key === 'qk' ? 'query-app' : false),
});
const headerKey = new APIKeyHeader({
  paramName: 'X-API-Key',
  authenticate: (_request, key) => (key === 'hk' ? 'header-app' : undefined),
});
const cookieKey = new APIKeyCookie({
  paramName: 'X-API-KEY',
  authenticate: (_request, key) => (key === 'ck' ? 'cookie-app' : undefined),
});

async function appWith(t: TestContext, auth: unknown): Promise<FastifyInstance> {
  const app = await build(t);
  app.get('/op', { auth: auth as never }, async (request) => ({ auth: request.auth }));
  app.post('/op', { auth: auth as never }, async (request) => ({ auth: request.auth }));
  return app;
}

const basicHeader = (user: string, pass: string) => `Basic ${encodeBasicCredentials(user, pass)}`;

describe('authenticator × credential state → status (contract §1, §5)', () => {
  const rows: {
    name: string;
    auth: unknown;
    headers?: Record<string, string>;
    url?: string;
    status: number;
    auth_?: unknown;
    challenge?: string | string[];
  }[] = [
    {
      name: 'bearer accepted',
      auth: bearer,
      headers: { authorization: 'Bearer good-token' },
      status: 200,
      auth_: { user: 'ann' },
    },
    {
      name: 'bearer scheme any case',
      auth: bearer,
      headers: { authorization: 'bEaReR good-token' },
      status: 200,
    },
    { name: 'bearer absent', auth: bearer, status: 401, challenge: 'Bearer realm="api"' },
    {
      name: 'bearer wrong scheme is absent',
      auth: bearer,
      headers: { authorization: 'Token good-token' },
      status: 401,
      challenge: 'Bearer realm="api"',
    },
    {
      name: 'bearer rejected',
      auth: bearer,
      headers: { authorization: 'Bearer nope' },
      status: 401,
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
    {
      name: 'bearer not a b64token',
      auth: bearer,
      headers: { authorization: 'Bearer a b' },
      status: 401,
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
    {
      name: 'bearer after a tab, a badly sent token',
      auth: bearer,
      headers: { authorization: 'Bearer\tgood-token' },
      status: 401,
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
    {
      name: 'static bearer after a tab',
      auth: staticBearer,
      headers: { authorization: 'Bearer\tgood-token' },
      status: 401,
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
    {
      name: 'bearer too long',
      auth: bearer,
      headers: { authorization: `Bearer ${'a'.repeat(4097)}` },
      status: 401,
    },
    {
      name: 'static bearer accepted',
      auth: staticBearer,
      headers: { authorization: 'Bearer good-token' },
      status: 200,
      auth_: { client: 'ci' },
    },
    {
      name: 'static bearer, scheme in another case and two spaces',
      auth: staticBearer,
      headers: { authorization: 'BEARER  good-token' },
      status: 200,
      auth_: { client: 'ci' },
    },
    {
      name: 'static bearer absent',
      auth: staticBearer,
      status: 401,
      challenge: 'Bearer realm="api"',
    },
    {
      name: 'static bearer, another token',
      auth: staticBearer,
      headers: { authorization: 'Bearer good-tokens' },
      status: 401,
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
    {
      name: 'static bearer not a b64token',
      auth: staticBearer,
      headers: { authorization: 'Bearer good token' },
      status: 401,
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
    {
      name: 'static API key accepted',
      auth: staticKey,
      headers: { 'x-partner-key': 'pk-1' },
      status: 200,
      auth_: 'partner',
    },
    {
      name: 'static API key, another key',
      auth: staticKey,
      headers: { 'x-partner-key': 'pk-2' },
      status: 401,
    },
    {
      name: 'basic accepted, colon in password',
      auth: basic,
      headers: { authorization: basicHeader('ann', 'p:w') },
      status: 200,
      auth_: 'ann',
    },
    {
      name: 'basic wrong password',
      auth: basic,
      headers: { authorization: basicHeader('ann', 'x') },
      status: 401,
      challenge: 'Basic realm="api", charset="UTF-8"',
    },
    {
      name: 'basic malformed base64',
      auth: basic,
      headers: { authorization: 'Basic ***' },
      status: 401,
    },
    {
      name: 'query key accepted',
      auth: queryKey,
      url: '/op?api_key=qk',
      status: 200,
      auth_: 'query-app',
    },
    {
      name: 'query key absent',
      auth: queryKey,
      status: 401,
      challenge: 'APIKey realm="api", in="query", name="api_key"',
    },
    {
      name: 'query key twice is ambiguous',
      auth: queryKey,
      url: '/op?api_key=qk&api_key=qk',
      status: 400,
    },
    {
      name: 'header key accepted',
      auth: headerKey,
      headers: { 'x-api-key': 'hk' },
      status: 200,
      auth_: 'header-app',
    },
    {
      name: 'header key rejected',
      auth: headerKey,
      headers: { 'x-api-key': 'bad' },
      status: 401,
      challenge: 'APIKey realm="api", in="header", name="X-API-Key"',
    },
    {
      name: 'cookie key accepted',
      auth: cookieKey,
      headers: { cookie: 'X-API-KEY=ck' },
      status: 200,
      auth_: 'cookie-app',
    },
    {
      name: 'cookie key rejected',
      auth: cookieKey,
      headers: { cookie: 'X-API-KEY=no' },
      status: 401,
      challenge: 'APIKey realm="api", in="cookie", name="X-API-KEY"',
    },
    { name: 'function accepted', auth: () => 'fn', status: 200, auth_: 'fn' },
    { name: 'function returning 0 accepts', auth: () => 0, status: 200, auth_: 0 },
    { name: 'function returning "" accepts', auth: () => '', status: 200, auth_: '' },
    { name: 'function returning false rejects, no challenge', auth: () => false, status: 401 },
    { name: 'async function returning null rejects', auth: async () => null, status: 401 },
  ];
  for (const row of rows) {
    it(row.name, async (t) => {
      const app = await appWith(t, row.auth);
      const response = await app.inject({
        method: 'GET',
        url: row.url ?? '/op',
        headers: row.headers ?? {},
      });
      assert.equal(response.statusCode, row.status, response.body);
      assert.match(String(response.headers['content-type']), /^application\/json; charset=utf-8/);
      if (row.status === 200) {
        if ('auth_' in row) assert.deepEqual(response.json(), { auth: row.auth_ });
      } else {
        const detail = { 401: 'Unauthorized', 400: 'Bad Request' }[row.status];
        assert.deepEqual(response.json(), { detail });
      }
      if (row.challenge !== undefined)
        assert.deepEqual(response.headers['www-authenticate'], row.challenge);
      if (row.status !== 401) assert.equal(response.headers['www-authenticate'], undefined);
    });
  }
});

describe('lists: any-of, in order, first wins (contract §3)', () => {
  it('tries members in order and the first acceptor decides', async (t) => {
    const app = await appWith(t, [queryKey, headerKey]);
    const both = await app.inject({ url: '/op?api_key=qk', headers: { 'x-api-key': 'hk' } });
    assert.deepEqual(both.json(), { auth: 'query-app' });
    const second = await app.inject({ url: '/op', headers: { 'x-api-key': 'hk' } });
    assert.deepEqual(second.json(), { auth: 'header-app' });
    const wrongFirst = await app.inject({ url: '/op?api_key=bad', headers: { 'x-api-key': 'hk' } });
    assert.deepEqual(wrongFirst.json(), { auth: 'header-app' });
  });

  it('sends one WWW-Authenticate line per challenge of the tried authenticators', async (t) => {
    const app = await appWith(t, [bearer, basic, headerKey, () => undefined]);
    const response = await app.inject({ url: '/op', headers: { authorization: 'Bearer wrong' } });
    assert.equal(response.statusCode, 401);
    assert.deepEqual(response.headers['www-authenticate'], [
      'Bearer realm="api", error="invalid_token"',
      'Basic realm="api", charset="UTF-8"',
      'APIKey realm="api", in="header", name="X-API-Key"',
    ]);
  });

  it('stops at a hook that throws: later members never run', async (t) => {
    calls.length = 0;
    const boom = () => {
      throw new AuthenticationError('token expired');
    };
    const app = await appWith(t, [boom, bearer]);
    const response = await app.inject({
      url: '/op',
      headers: { authorization: 'Bearer good-token' },
    });
    assert.equal(response.statusCode, 401);
    assert.deepEqual(response.json(), { detail: 'token expired' });
    assert.deepEqual(calls, []);
  });

  it('allOf passes only when every member accepts; auth is the list of values', async (t) => {
    const app = await appWith(t, [allOf(bearer, headerKey), queryKey]);
    const both = await app.inject({
      url: '/op',
      headers: { authorization: 'Bearer good-token', 'x-api-key': 'hk' },
    });
    assert.deepEqual(both.json(), { auth: [{ user: 'ann' }, 'header-app'] });
    const one = await app.inject({ url: '/op', headers: { authorization: 'Bearer good-token' } });
    assert.equal(one.statusCode, 401);
    const fallback = await app.inject({
      url: '/op?api_key=qk',
      headers: { authorization: 'Bearer good-token' },
    });
    assert.deepEqual(fallback.json(), { auth: 'query-app' });
  });

  it('an ambiguous credential anywhere answers 400 without running the handler', async (t) => {
    const app = await appWith(t, [headerKey, queryKey]);
    const response = await app.inject({
      url: '/op?api_key=a&api_key=b',
      headers: { 'x-api-key': 'bad' },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json<{ detail: string }>().detail, 'Bad Request');
  });
});

describe('errors thrown by hooks (contract §5, seed §5.4)', () => {
  class InvalidToken extends Error {}

  it('a registered exception handler decides the response, for hooks and handlers alike', async (t) => {
    const app = await build(t, {
      csrf: false,
      exceptionHandlers: [
        exceptionHandler(InvalidToken, (error, _request, reply) =>
          reply.code(401).send({ detail: `invalid: ${error.message}` }),
        ),
      ],
    });
    const throwing = new HttpBearer({
      authenticate: () => {
        throw new InvalidToken('expired');
      },
    });
    let handlerRan = false;
    app.get('/hook', { auth: throwing }, async () => {
      handlerRan = true;
      return {};
    });
    app.get('/handler', { auth: null }, async () => {
      throw new InvalidToken('from handler');
    });
    const hook = await app.inject({ url: '/hook', headers: { authorization: 'Bearer x' } });
    assert.equal(hook.statusCode, 401);
    assert.deepEqual(hook.json(), { detail: 'invalid: expired' });
    assert.equal(handlerRan, false);
    const handler = await app.inject({ url: '/handler' });
    assert.deepEqual(handler.json(), { detail: 'invalid: from handler' });
  });

  it('the most specific registered class wins', async (t) => {
    class Special extends InvalidToken {}
    const app = await build(t, {
      csrf: false,
      exceptionHandlers: [
        exceptionHandler(Error, (_e, _r, reply) => reply.code(418).send({ detail: 'error' })),
        exceptionHandler(Special, (_e, _r, reply) => reply.code(401).send({ detail: 'special' })),
      ],
    });
    app.get(
      '/x',
      {
        auth: () => {
          throw new Special();
        },
      },
      async () => ({}),
    );
    const response = await app.inject({ url: '/x' });
    assert.deepEqual([response.statusCode, response.json()], [401, { detail: 'special' }]);
  });

  it("errors of classes without a handler keep vouch's answer", async (t) => {
    const app = await build(t, {
      csrf: false,
      exceptionHandlers: [
        exceptionHandler(InvalidToken, (_e, _r, reply) => reply.code(418).send()),
      ],
    });
    app.get('/x', { auth: () => Promise.reject(new AuthorizationError()) }, async () => ({}));
    const response = await app.inject({ url: '/x' });
    assert.deepEqual([response.statusCode, response.json()], [403, { detail: 'Forbidden' }]);
  });

  const rows = [
    {
      name: 'AuthenticationError',
      error: new AuthenticationError('Session expired'),
      status: 401,
      detail: 'Session expired',
    },
    {
      name: 'AuthorizationError',
      error: new AuthorizationError(),
      status: 403,
      detail: 'Forbidden',
    },
    {
      name: 'StoreUnavailableError',
      error: new StoreUnavailableError('SQLITE_BUSY: database is locked at /srv/hunter2.db'),
      status: 503,
      detail: 'Service Unavailable',
    },
    {
      name: 'anything else',
      error: new Error('db password is hunter2'),
      status: 500,
      detail: 'Internal Server Error',
    },
  ];
  for (const row of rows) {
    it(`${row.name} → ${row.status}`, async (t) => {
      const app = await build(t, { csrf: false });
      const failing = new HttpBearer({ authenticate: () => Promise.reject(row.error) });
      app.get('/x', { auth: failing }, async () => ({}));
      const response = await app.inject({ url: '/x', headers: { authorization: 'Bearer t' } });
      assert.equal(response.statusCode, row.status);
      assert.deepEqual(response.json(), { detail: row.detail });
      assert.doesNotMatch(response.body, /hunter2|stack/);
      if (row.status === 401)
        assert.equal(
          response.headers['www-authenticate'],
          'Bearer realm="api", error="invalid_token"',
        );
      else assert.equal(response.headers['www-authenticate'], undefined);
      if (row.status === 503) assert.equal(response.headers['retry-after'], '5');
    });
  }

  it('logs an unexpected hook error without leaking it to the client', async (t) => {
    const lines: string[] = [];
    const app = await build(
      t,
      { csrf: false },
      {
        logger: { level: 'error', stream: { write: (line: string) => void lines.push(line) } },
      },
    );
    app.get(
      '/x',
      {
        auth: () => {
          throw new Error('boom');
        },
      },
      async () => ({}),
    );
    const response = await app.inject({ url: '/x' });
    assert.equal(response.statusCode, 500);
    assert.ok(
      lines.some((line) => line.includes('boom')),
      'the error is logged',
    );
  });

  it("keeps Fastify's own answer for client errors of handlers", async (t) => {
    const app = await build(t, { csrf: false });
    app.post(
      '/x',
      { auth: null, schema: { body: { type: 'object', required: ['a'] } } },
      async () => ({}),
    );
    const response = await app.inject({ method: 'POST', url: '/x', payload: {} });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json<{ code: string }>().code, 'FST_ERR_VALIDATION');
  });

  it('leaves the error handler alone with errorHandler: false', async (t) => {
    const app = await build(t, { csrf: false, errorHandler: false });
    app.get(
      '/x',
      {
        auth: () => {
          throw new AuthorizationError();
        },
      },
      async () => ({}),
    );
    const response = await app.inject({ url: '/x' });
    assert.equal(response.statusCode, 403);
    assert.equal(response.json<{ code: string }>().code, 'VOUCH_ERR_FORBIDDEN');
  });

  it("with errorHandler: false, Fastify's own handler still sends challenges, Retry-After", async (t) => {
    const app = await build(t, { csrf: false, errorHandler: false });
    const throwing = new HttpBearer({
      authenticate: (_request, token) => {
        if (token === 'down') throw new StoreUnavailableError('pool exhausted', { retryAfter: 7 });
        throw new AuthenticationError('Token expired');
      },
    });
    app.get('/x', { auth: throwing }, async () => ({}));
    const expired = await app.inject({ url: '/x', headers: { authorization: 'Bearer t' } });
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json<{ code: string }>().code, 'VOUCH_ERR_UNAUTHENTICATED');
    assert.equal(expired.headers['www-authenticate'], 'Bearer realm="api", error="invalid_token"');
    const down = await app.inject({ url: '/x', headers: { authorization: 'Bearer down' } });
    assert.deepEqual([down.statusCode, down.headers['retry-after']], [503, '7']);
  });
});

describe('authentication runs before the body is read (contract §5)', () => {
  it('answers 401 to an unauthenticated POST with a huge or malformed body', async (t) => {
    const app = await build(t, { auth: bearer, csrf: false }, { bodyLimit: 100 });
    let parsed = false;
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_r, body, done) => {
      parsed = true;
      done(null, JSON.parse(body as string));
    });
    app.post('/x', { schema: { body: { type: 'object', required: ['a'] } } }, async () => ({}));
    const huge = await app.inject({
      method: 'POST',
      url: '/x',
      headers: { 'content-type': 'application/json' },
      payload: 'x'.repeat(10_000),
    });
    assert.equal(huge.statusCode, 401);
    const malformed = await app.inject({
      method: 'POST',
      url: '/x',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    assert.equal(malformed.statusCode, 401);
    assert.equal(parsed, false);
  });
});

describe('every route form is protected', () => {
  it('the HEAD route Fastify derives from a GET', async (t) => {
    const app = await build(t, { auth: bearer, csrf: false });
    app.get('/x', async () => ({ secret: true }));
    assert.equal((await app.inject({ method: 'HEAD', url: '/x' })).statusCode, 401);
    const allowed = await app.inject({
      method: 'HEAD',
      url: '/x',
      headers: { authorization: 'Bearer good-token' },
    });
    assert.equal(allowed.statusCode, 200);
  });

  it("app.route() with auth and several methods, keeping the route's own onRequest hooks", async (t) => {
    const app = await build(t, { csrf: false });
    const seen: unknown[] = [];
    app.route({
      method: ['GET', 'PUT'],
      url: '/r',
      auth: headerKey,
      onRequest: async (request) => {
        seen.push(request.auth);
      },
      handler: async (request) => ({ auth: request.auth }),
    });
    app.get(
      '/r2',
      { auth: headerKey, onRequest: [async (request) => void seen.push(request.auth)] },
      async () => ({}),
    );
    assert.equal((await app.inject({ method: 'PUT', url: '/r' })).statusCode, 401);
    assert.deepEqual(seen, []);
    const ok = await app.inject({ method: 'PUT', url: '/r', headers: { 'x-api-key': 'hk' } });
    assert.deepEqual(ok.json(), { auth: 'header-app' });
    assert.deepEqual(seen, ['header-app']);
    assert.equal((await app.inject({ url: '/r2' })).statusCode, 401);
    assert.equal(
      (await app.inject({ url: '/r2', headers: { 'x-api-key': 'hk' } })).statusCode,
      200,
    );
    assert.deepEqual(seen, ['header-app', 'header-app']);
  });
});

describe('Cache-Control: private (contract §5)', () => {
  const rows = [
    { name: 'API key', auth: headerKey, headers: { 'x-api-key': 'hk' }, private: true },
    { name: 'cookie key', auth: cookieKey, headers: { cookie: 'X-API-KEY=ck' }, private: true },
    {
      name: 'bearer',
      auth: bearer,
      headers: { authorization: 'Bearer good-token' },
      private: false,
    },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.private ? 'private' : 'untouched'}`, async (t) => {
      const app = await appWith(t, row.auth);
      const response = await app.inject({ url: '/op', headers: row.headers });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['cache-control'], row.private ? 'private' : undefined);
    });
  }
});

describe('CSRF for cookie-based authentication (contract §4)', () => {
  async function sessionApp(t: TestContext, auth?: unknown) {
    const store = new MemorySessionStore<{ name: string }>();
    const session = new SessionAuth({ store });
    const app = await build(t, { csrf: testCsrf });
    const routeAuth = (auth ?? session) as never;
    app.get('/pets', { auth: routeAuth }, async (request) => ({ auth: request.auth }));
    app.post('/pets', { auth: routeAuth }, async (request) => ({ auth: request.auth }));
    app.post('/exempt', { auth: routeAuth, csrf: false }, async (request) => ({
      auth: request.auth,
    }));
    const id = await store.create({ name: 'ann' });
    const { token, cookie } = createCsrfVerifier(testCsrf).issue(id);
    const csrfCookie = cookie.split(';')[0]!;
    return { app, id, token, cookies: `sessionid=${id}; ${csrfCookie}`, session };
  }

  it('shares its protection, so tokens it issues pass its check', async (t) => {
    const { app, id } = await sessionApp(t);
    const issued = app.vouch.csrfProtection?.issue(id);
    assert.ok(issued !== undefined);
    const response = await app.inject({
      method: 'POST',
      url: '/pets',
      headers: {
        cookie: `sessionid=${id}; ${issued.cookie.split(';')[0]!}`,
        'x-csrftoken': issued.token,
        origin: 'http://app.test',
      },
    });
    assert.equal(response.statusCode, 200);
    assert.equal((await build(t, { csrf: false })).vouch.csrfProtection, undefined);
  });

  it('lets safe methods through without a token', async (t) => {
    const { app, id } = await sessionApp(t);
    const response = await app.inject({ url: '/pets', headers: { cookie: `sessionid=${id}` } });
    assert.deepEqual(response.json(), { auth: { name: 'ann' } });
    assert.equal(response.headers['cache-control'], 'private');
  });

  const unsafe = [
    {
      name: 'header token from a trusted origin',
      headers: (s: Ctx) => ({
        cookie: s.cookies,
        'x-csrftoken': s.token,
        origin: 'http://app.test',
      }),
      status: 200,
    },
    {
      name: 'Sec-Fetch-Site same-origin',
      headers: (s: Ctx) => ({
        cookie: s.cookies,
        'x-csrftoken': s.token,
        'sec-fetch-site': 'same-origin',
      }),
      status: 200,
    },
    {
      name: 'Referer from a trusted origin',
      headers: (s: Ctx) => ({
        cookie: s.cookies,
        'x-csrftoken': s.token,
        referer: 'http://app.test/page',
      }),
      status: 200,
    },
    {
      name: 'no token',
      headers: (s: Ctx) => ({ cookie: s.cookies, origin: 'http://app.test' }),
      status: 403,
    },
    {
      name: 'cross-site',
      headers: (s: Ctx) => ({
        cookie: s.cookies,
        'x-csrftoken': s.token,
        'sec-fetch-site': 'cross-site',
      }),
      status: 403,
    },
    {
      name: 'untrusted origin',
      headers: (s: Ctx) => ({
        cookie: s.cookies,
        'x-csrftoken': s.token,
        origin: 'http://evil.test',
      }),
      status: 403,
    },
    {
      name: 'no origin at all',
      headers: (s: Ctx) => ({ cookie: s.cookies, 'x-csrftoken': s.token }),
      status: 403,
    },
    {
      name: 'token for another session',
      headers: (s: Ctx) => ({
        cookie: `sessionid=${s.id}; csrftoken=${createCsrfVerifier(testCsrf).issue('other').token}`,
        'x-csrftoken': createCsrfVerifier(testCsrf).issue('other').token,
        origin: 'http://app.test',
      }),
      status: 403,
    },
  ];
  type Ctx = Awaited<ReturnType<typeof sessionApp>>;
  for (const row of unsafe) {
    it(`POST with ${row.name} → ${row.status}`, async (t) => {
      const ctx = await sessionApp(t);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/pets',
        headers: row.headers(ctx),
      });
      assert.equal(response.statusCode, row.status, response.body);
      if (row.status === 403) assert.deepEqual(response.json(), { detail: 'CSRF check Failed' });
    });
  }

  it('checks every method but GET, HEAD, OPTIONS and TRACE, the ones Fastify adds too', async (t) => {
    const store = new MemorySessionStore<{ name: string }>();
    const session = new SessionAuth({ store });
    const app = await build(t, { csrf: testCsrf });
    const methods = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'SEARCH'];
    for (const method of methods) app.addHttpMethod(method, { hasBody: true });
    app.route({
      method: [...methods, 'OPTIONS', 'TRACE'],
      url: '/dav',
      auth: session,
      handler: async (request: FastifyRequest) => ({ auth: request.auth }),
    });
    const id = await store.create({ name: 'ann' });
    const { token } = createCsrfVerifier(testCsrf).issue(id);
    for (const method of methods) {
      const refused = await app.inject({
        method: method as 'POST',
        url: '/dav',
        headers: { cookie: `sessionid=${id}`, origin: 'http://evil.test' },
      });
      assert.equal(refused.statusCode, 403, method);
      assert.deepEqual(refused.json(), { detail: 'CSRF check Failed' });
      const allowed = await app.inject({
        method: method as 'POST',
        url: '/dav',
        headers: {
          cookie: `sessionid=${id}; csrftoken=${token}`,
          'x-csrftoken': token,
          origin: 'http://app.test',
        },
      });
      assert.equal(allowed.statusCode, 200, method);
    }
    for (const method of ['OPTIONS', 'TRACE'] as const) {
      const safe = await app.inject({
        method,
        url: '/dav',
        headers: { cookie: `sessionid=${id}`, origin: 'http://evil.test' },
      });
      assert.equal(safe.statusCode, 200, method);
    }
  });

  it('accepts the token from the form body of a form post', async (t) => {
    const ctx = await sessionApp(t);
    await ctx.app.register(import('@fastify/formbody'));
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/pets',
      headers: {
        cookie: ctx.cookies,
        origin: 'http://app.test',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `csrfmiddlewaretoken=${encodeURIComponent(ctx.token)}`,
    });
    assert.equal(ok.statusCode, 200, ok.body);
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/pets',
      headers: {
        cookie: ctx.cookies,
        origin: 'http://app.test',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'csrfmiddlewaretoken=forged',
    });
    assert.deepEqual([bad.statusCode, bad.json()], [403, { detail: 'CSRF check Failed' }]);
  });

  it('never checks a request without the cookie: a Bearer POST passes behind a cookie authenticator', async (t) => {
    const ctx = await sessionApp(t, [cookieKey, bearer]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/pets',
      headers: { authorization: 'Bearer good-token' },
    });
    assert.deepEqual(response.json(), { auth: { user: 'ann' } });
  });

  it('a cookie credential failing CSRF is unusable, so the next authenticator still runs', async (t) => {
    const ctx = await sessionApp(t, [ctx0Session(), bearer]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/pets',
      headers: { cookie: 'X-API-KEY=ck', authorization: 'Bearer good-token' },
    });
    assert.deepEqual(response.json(), { auth: { user: 'ann' } });
    function ctx0Session() {
      return cookieKey;
    }
  });

  it('exempts an operation with csrf: false', async (t) => {
    const ctx = await sessionApp(t);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/exempt',
      headers: { cookie: `sessionid=${ctx.id}` },
    });
    assert.deepEqual(response.json(), { auth: { name: 'ann' } });
  });

  it('refuses to start when cookie authentication on an unsafe route has no CSRF settings', async (t) => {
    const app = await build(t, {});
    const start = async () => {
      app.post('/pets', { auth: cookieKey }, async () => ({}));
      await app.ready();
    };
    await assert.rejects(start, (error: Error & { code?: string }) => {
      assert.equal(error.code, 'VOUCH_ERR_CONFIGURATION');
      assert.match(error.message, /POST \/pets/);
      return true;
    });
  });

  it('warns at start-up when CSRF is turned off', async (t) => {
    const lines: string[] = [];
    const app = await build(
      t,
      { csrf: false },
      {
        logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
      },
    );
    await app.ready();
    assert.ok(lines.some((line) => line.includes('CSRF protection is disabled')));
  });
});

describe('scopes on an operation', () => {
  it('refuses at start-up scopes without authentication, or that no token could carry', async (t) => {
    const app = await build(t, { auth: new HttpBearer({ tokens: new Map([['t', 'ann']]) }) });
    assert.throws(() => app.get('/a', { auth: null, scopes: ['admin'] }, async () => ({})), {
      code: 'VOUCH_ERR_CONFIGURATION',
      message: 'GET /a: scopes need authentication; this route has none',
    });
    assert.throws(() => app.get('/b', { scopes: ['two words'] }, async () => ({})), {
      code: 'VOUCH_ERR_CONFIGURATION',
      message: /^GET \/b: scope "two words" is not an RFC 6749 scope-token/,
    });
  });
});
