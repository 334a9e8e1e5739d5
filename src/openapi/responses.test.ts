import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allOf,
  APIKeyCookie,
  APIKeyHeader,
  APIKeyQuery,
  authFunction,
  HttpBasic,
  HttpBearer,
  MemorySessionStore,
  resolveAuth,
  SessionAuth,
  type AuthSpec,
} from '../index.js';
import { csrfCanApply, errorBodySchema, errorResponses } from './responses.js';

const bearer = new HttpBearer({ authenticate: (_request, token) => token });
const ownRealm = new HttpBearer({ name: 'ownRealm', realm: 'own', authenticate: (_r, t) => t });
const basic = new HttpBasic({ authenticate: (_request, username) => username });
const queryKey = new APIKeyQuery({ paramName: 'api_key', authenticate: (_r, key) => key });
const headerKey = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: (_r, key) => key });
const cookieKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: (_r, key) => key });
const session = new SessionAuth({ store: new MemorySessionStore() });
const memorySession = new SessionAuth({
  name: 'memorySession',
  store: new MemorySessionStore(),
  consultsStore: false,
});
const database = new HttpBearer({
  name: 'database',
  consultsStore: true,
  authenticate: (_request, token) => token,
});
const plain = () => 'ok';
const challenging = authFunction(() => 'ok', { challenge: 'Custom realm="fn"' });

function route(spec: AuthSpec, csrf = true) {
  return { requirements: resolveAuth(spec, 'test'), csrf };
}

function statuses(spec: AuthSpec, method: string | readonly string[], csrf = true): string[] {
  return Object.keys(errorResponses(route(spec, csrf), method));
}

describe('errorResponses (contract §5, §8)', () => {
  const rows: {
    name: string;
    spec: AuthSpec;
    method: string | readonly string[];
    csrf?: boolean;
    expected: string[];
  }[] = [
    { name: 'auth: null documents nothing', spec: null, method: 'POST', expected: [] },
    {
      name: 'Bearer: ambiguous 400 and 401',
      spec: bearer,
      method: 'GET',
      expected: ['400', '401'],
    },
    { name: 'Basic', spec: basic, method: 'POST', expected: ['400', '401'] },
    { name: 'query key', spec: queryKey, method: 'GET', expected: ['400', '401'] },
    {
      name: 'header key, unsafe method',
      spec: headerKey,
      method: 'DELETE',
      expected: ['400', '401'],
    },
    { name: 'custom function: only 401', spec: plain, method: 'POST', expected: ['401'] },
    { name: 'cookie key, safe method', spec: cookieKey, method: 'GET', expected: ['400', '401'] },
    {
      name: 'cookie key, unsafe method: CSRF 403',
      spec: cookieKey,
      method: 'PUT',
      expected: ['400', '401', '403'],
    },
    {
      name: 'cookie key, CSRF off on the route',
      spec: cookieKey,
      method: 'PUT',
      csrf: false,
      expected: ['400', '401'],
    },
    {
      name: 'session, unsafe method: CSRF 403 and store 503',
      spec: session,
      method: 'PATCH',
      expected: ['400', '401', '403', '503'],
    },
    { name: 'session, GET', spec: session, method: 'GET', expected: ['400', '401', '503'] },
    {
      name: 'a session store that says it never fails: no 503',
      spec: memorySession,
      method: 'GET',
      expected: ['400', '401'],
    },
    {
      name: 'a hook that consults a store: 503',
      spec: database,
      method: 'GET',
      expected: ['400', '401', '503'],
    },
    {
      name: 'a member that consults a store anywhere in the list',
      spec: [plain, allOf(headerKey, database)],
      method: 'GET',
      expected: ['400', '401', '503'],
    },
    {
      name: 'a cookie member anywhere in the list',
      spec: [bearer, allOf(headerKey, cookieKey)],
      method: 'POST',
      expected: ['400', '401', '403'],
    },
    {
      name: 'several methods: one unsafe is enough',
      spec: cookieKey,
      method: ['GET', 'POST'],
      expected: ['400', '401', '403'],
    },
    {
      name: 'several safe methods',
      spec: cookieKey,
      method: ['GET', 'HEAD', 'OPTIONS', 'TRACE'],
      expected: ['400', '401'],
    },
    {
      name: 'a method in lower case',
      spec: cookieKey,
      method: 'post',
      expected: ['400', '401', '403'],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(statuses(row.spec, row.method, row.csrf), row.expected);
    });
  }

  it('describes the { detail } body on every response', () => {
    const responses = errorResponses(route(session), 'POST');
    for (const response of Object.values(responses)) {
      assert.deepEqual(response.content['application/json'].schema, {
        type: 'object',
        properties: { detail: { type: 'string' } },
        required: ['detail'],
      });
      assert.match(response.description, /\w/);
    }
    assert.match(responses['403']!.description, /^CSRF check Failed/);
    assert.deepEqual(Object.keys(responses['503']!.headers!), ['Retry-After']);
    assert.deepEqual(responses['503']!.headers!['Retry-After']!.schema, {
      type: 'integer',
      minimum: 0,
    });
  });

  it('describes WWW-Authenticate with the challenges of the members', () => {
    const responses = errorResponses(route([bearer, basic, headerKey, plain, ownRealm]), 'GET');
    const header = responses['401']!.headers!['WWW-Authenticate']!;
    assert.deepEqual(header.schema, { type: 'string' });
    assert.equal(
      header.description,
      'One line per authenticator tried, among: `Bearer realm="api"`, `Basic realm="api", charset="UTF-8"`, ' +
        '`APIKey realm="api", in="header", name="X-API-Key"`, `Bearer realm="own"`',
    );
  });

  it('uses the realm given, and a challenge a function declares', () => {
    const responses = errorResponses(route([bearer, bearer, challenging]), 'GET', {
      realm: 'pets',
    });
    assert.equal(
      responses['401']!.headers!['WWW-Authenticate']!.description,
      'One line per authenticator tried, among: `Bearer realm="pets"`, `Custom realm="fn"`',
    );
  });

  it('describes the 400 with the invalid_request challenge of its Bearer members', () => {
    const responses = errorResponses(route([headerKey, bearer, ownRealm]), 'GET');
    assert.equal(
      responses['400']!.headers!['WWW-Authenticate']!.description,
      'On an ambiguous credential: `Bearer realm="api", error="invalid_request"`, `Bearer realm="own", error="invalid_request"`',
    );
    assert.equal(errorResponses(route([basic, headerKey]), 'GET')['400']!.headers, undefined);
  });

  it('has no WWW-Authenticate when nothing challenges (session, plain functions)', () => {
    assert.equal(errorResponses(route([session, plain]), 'GET')['401']!.headers, undefined);
  });

  it('never shares the exported body schema', () => {
    const responses = errorResponses(route(bearer), 'GET');
    const schema = responses['401']!.content['application/json'].schema;
    assert.notEqual(schema, errorBodySchema);
    assert.notEqual(schema, responses['400']!.content['application/json'].schema);
    assert.ok(Object.isFrozen(errorBodySchema));
  });
});

describe('csrfCanApply (contract §4)', () => {
  it('needs CSRF on, a cookie member and an unsafe method', () => {
    assert.equal(csrfCanApply(route(session), 'POST'), true);
    assert.equal(csrfCanApply(route(session, false), 'POST'), false);
    assert.equal(csrfCanApply(route(bearer), 'POST'), false);
    assert.equal(csrfCanApply(route(session), 'GET'), false);
    assert.equal(csrfCanApply(route(null), 'POST'), false);
    assert.equal(csrfCanApply(route(session), 'PROPFIND'), true);
  });
});

describe('errorResponses with scopes', () => {
  const scoped = (spec: AuthSpec, csrf = true) => ({ ...route(spec, csrf), scopes: ['pets:read'] });

  it('documents the 403 with the insufficient_scope challenges', () => {
    const forbidden = errorResponses(scoped([bearer, ownRealm, headerKey]), 'GET', {})['403'];
    assert.equal(forbidden?.description, 'Forbidden: the credential does not grant pets:read');
    assert.equal(
      forbidden.headers?.['WWW-Authenticate']?.description,
      'On a lack of scope: `Bearer realm="api", error="insufficient_scope", scope="pets:read"`, `Bearer realm="own", error="insufficient_scope", scope="pets:read"`',
    );
  });

  it('names CSRF and scopes together, without a challenge where none is sent', () => {
    const forbidden = errorResponses(scoped(cookieKey), 'POST')['403'];
    assert.match(
      forbidden?.description ?? '',
      /^CSRF check Failed: .*; or Forbidden: the credential/,
    );
    assert.equal(forbidden?.headers, undefined);
  });
});
