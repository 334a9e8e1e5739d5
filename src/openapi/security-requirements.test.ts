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
import { securityRequirements } from './security-requirements.js';

const bearer = new HttpBearer({ authenticate: (_request, token) => token });
const basic = new HttpBasic({ authenticate: (_request, username) => username });
const queryKey = new APIKeyQuery({ paramName: 'api_key', authenticate: (_r, key) => key });
const headerKey = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: (_r, key) => key });
const cookieKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: (_r, key) => key });
const session = new SessionAuth({ store: new MemorySessionStore() });
const documented = authFunction(() => 'ok', {
  name: 'ipAllowList',
  securityScheme: { type: 'apiKey', in: 'header', name: 'X-Forwarded-For' },
});
const undocumented = () => 'ok';

function requirementsOf(spec: AuthSpec) {
  return securityRequirements(resolveAuth(spec, 'test'));
}

describe('securityRequirements (contract §3, §8)', () => {
  const rows: { name: string; spec: AuthSpec; expected: unknown }[] = [
    { name: 'auth: null gives security: [] (no credential)', spec: null, expected: [] },
    { name: 'Bearer', spec: bearer, expected: [{ bearerAuth: [] }] },
    { name: 'Basic', spec: basic, expected: [{ basicAuth: [] }] },
    { name: 'API key in query', spec: queryKey, expected: [{ apiKeyQuery_api_key: [] }] },
    { name: 'API key in header', spec: headerKey, expected: [{ 'apiKeyHeader_X-API-Key': [] }] },
    { name: 'API key in cookie', spec: cookieKey, expected: [{ 'apiKeyCookie_X-API-KEY': [] }] },
    { name: 'session', spec: session, expected: [{ sessionAuth: [] }] },
    { name: 'documented function', spec: documented, expected: [{ ipAllowList: [] }] },
    {
      name: 'a list gives one requirement per member, in order',
      spec: [queryKey, headerKey, bearer],
      expected: [{ apiKeyQuery_api_key: [] }, { 'apiKeyHeader_X-API-Key': [] }, { bearerAuth: [] }],
    },
    {
      name: 'an all-of group gives one requirement naming every member',
      spec: allOf(headerKey, bearer),
      expected: [{ 'apiKeyHeader_X-API-Key': [], bearerAuth: [] }],
    },
    {
      name: 'all-of inside a list: AND inside, OR outside',
      spec: [allOf(headerKey, bearer), session],
      expected: [{ 'apiKeyHeader_X-API-Key': [], bearerAuth: [] }, { sessionAuth: [] }],
    },
    {
      name: 'an undocumented function alone gives security: [] (nothing a client can send)',
      spec: undocumented,
      expected: [],
    },
    {
      name: 'an undocumented function in a list is left out',
      spec: [undocumented, bearer],
      expected: [{ bearerAuth: [] }],
    },
    {
      name: 'an undocumented member of an all-of group is left out of its requirement',
      spec: allOf(bearer, undocumented),
      expected: [{ bearerAuth: [] }],
    },
    {
      name: 'a requirement repeating an earlier one is dropped',
      spec: [
        allOf(bearer, undocumented),
        bearer,
        allOf(headerKey, bearer),
        allOf(bearer, headerKey),
      ],
      expected: [{ bearerAuth: [] }, { 'apiKeyHeader_X-API-Key': [], bearerAuth: [] }],
    },
    {
      name: 'a member named twice in a group is named once',
      spec: allOf(bearer, bearer),
      expected: [{ bearerAuth: [] }],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(requirementsOf(row.spec), row.expected);
    });
  }

  it('keeps the member order inside a group', () => {
    assert.deepEqual(Object.keys(requirementsOf(allOf(session, headerKey))[0]!), [
      'sessionAuth',
      'apiKeyHeader_X-API-Key',
    ]);
  });

  it('gives fresh arrays every time', () => {
    const first = requirementsOf(bearer);
    first[0]!['bearerAuth']!.push('mutated');
    assert.deepEqual(requirementsOf(bearer), [{ bearerAuth: [] }]);
  });
});

describe('securityRequirements with scopes', () => {
  it('lists the scopes on every scheme of every requirement', () => {
    assert.deepEqual(
      securityRequirements(resolveAuth([bearer, allOf(headerKey, basic)], 'test'), ['a']),
      [{ bearerAuth: ['a'] }, { 'apiKeyHeader_X-API-Key': ['a'], basicAuth: ['a'] }],
    );
  });
});
