// The contract as a table: each case is a request and what every adapter must answer.
import type { ContractRequest } from './harness.js';

/** What a case expects; fields left out are not compared. */
export interface Expected {
  readonly status: number;
  /** The `auth` the handler saw (`null` when none), for a 200. */
  readonly auth?: unknown;
  /** The `detail` of an error body. */
  readonly detail?: string;
  /** `WWW-Authenticate` lines, in order (compared always: none means none). */
  readonly challenges?: readonly string[];
  readonly cacheControl?: string;
  readonly retryAfter?: string;
}

export interface ContractCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly expected: Expected;
}

const BEARER = 'Bearer realm="api"';
const BEARER_INVALID = 'Bearer realm="api", error="invalid_token"';
const BASIC = 'Basic realm="api", charset="UTF-8"';
const QUERY = 'APIKey realm="api", in="query", name="api_key"';
const HEADER = 'APIKey realm="api", in="header", name="X-API-Key"';
const ANN = { user: 'ann' };

const get = (path: string, headers: Record<string, string | string[]> = {}): ContractRequest => ({
  method: 'GET',
  path,
  headers,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const basic = (userPass: string) => ({
  authorization: `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`,
});
const unauthorized = (challenges: readonly string[], detail = 'Unauthorized') => ({
  status: 401,
  detail,
  challenges,
});
const BAD_REQUEST = { status: 400, detail: 'Bad Request', challenges: [] } as const;

const rows: readonly (readonly [string, ContractRequest, Expected])[] = [
  // Each kind: accepted, absent, rejected.
  [
    'bearer accepted',
    get('/bearer', bearer('good-token')),
    { status: 200, auth: ANN, challenges: [] },
  ],
  ['bearer absent', get('/bearer'), unauthorized([BEARER])],
  ['bearer rejected', get('/bearer', bearer('wrong')), unauthorized([BEARER_INVALID])],
  ['bearer: other scheme is absent', get('/bearer', basic('ann:sec:ret')), unauthorized([BEARER])],
  [
    'basic accepted, colon in password',
    get('/basic', basic('ann:sec:ret')),
    { status: 200, auth: 'ann' },
  ],
  ['basic accepted, UTF-8 username', get('/basic', basic('zoë:pw')), { status: 200, auth: 'zoë' }],
  ['basic absent', get('/basic'), unauthorized([BASIC])],
  ['basic rejected', get('/basic', basic('ann:wrong')), unauthorized([BASIC])],
  ['basic: not base64', get('/basic', { authorization: 'Basic ***' }), unauthorized([BASIC])],
  [
    'query key accepted, private',
    get('/query?api_key=query-key'),
    { status: 200, auth: 'query-app', cacheControl: 'private' },
  ],
  ['query key absent', get('/query'), unauthorized([QUERY])],
  ['query key rejected', get('/query?api_key=nope'), unauthorized([QUERY])],
  ['query key given twice', get('/query?api_key=query-key&api_key=query-key'), BAD_REQUEST],
  [
    'header key accepted',
    get('/header', { 'X-API-Key': 'header-key' }),
    { status: 200, auth: 'header-app', cacheControl: 'private' },
  ],
  [
    'header key, odd name casing',
    get('/header', { 'x-api-KEY': 'header-key' }),
    { status: 200, auth: 'header-app' },
  ],
  ['header key absent', get('/header'), unauthorized([HEADER])],
  ['header key rejected', get('/header', { 'X-API-Key': 'nope' }), unauthorized([HEADER])],
  [
    'cookie key accepted',
    get('/cookie', { cookie: 'a=1; X-API-KEY=cookie-key' }),
    { status: 200, auth: 'cookie-app', cacheControl: 'private' },
  ],
  [
    'cookie key absent',
    get('/cookie', { cookie: 'a=1' }),
    unauthorized(['APIKey realm="api", in="cookie", name="X-API-KEY"']),
  ],
  ['function accepted', get('/function', { 'x-client': 'robot' }), { status: 200, auth: 'robot' }],
  ['function refuses: 401 without challenge', get('/function'), unauthorized([])],
  // Lists and groups.
  [
    'list: the first that accepts wins',
    get('/multiple?api_key=query-key', { 'X-API-Key': 'header-key' }),
    { status: 200, auth: 'query-app' },
  ],
  [
    'list: a later member accepts',
    get('/multiple?api_key=nope', { 'X-API-Key': 'header-key' }),
    { status: 200, auth: 'header-app' },
  ],
  ['list: none accepts, one challenge each', get('/multiple'), unauthorized([QUERY, HEADER])],
  [
    'all-of: every member accepts',
    get('/both', { ...bearer('good-token'), 'X-API-Key': 'header-key' }),
    { status: 200, auth: [ANN, 'header-app'] },
  ],
  ['all-of: one member missing', get('/both', bearer('good-token')), unauthorized([HEADER])],
  // Precedence.
  ['app-wide auth applies', get('/inherit'), unauthorized([BEARER])],
  ['app-wide auth accepts', get('/inherit', bearer('good-token')), { status: 200, auth: ANN }],
  [
    'operation auth replaces the app-wide one',
    get('/basic', bearer('good-token')),
    unauthorized([BASIC]),
  ],
  ['null disables', get('/public'), { status: 200, auth: null, challenges: [] }],
  [
    'null disables, credentials ignored',
    get('/public', bearer('wrong')),
    { status: 200, auth: null },
  ],
  [
    'group auth replaces the app-wide one',
    get('/events/list', bearer('good-token')),
    unauthorized([HEADER]),
  ],
  [
    'group auth accepts',
    get('/events/list', { 'X-API-Key': 'header-key' }),
    { status: 200, auth: 'header-app' },
  ],
  ['operation null inside a group', get('/events/open'), { status: 200, auth: null }],
  [
    'operation auth inside a group',
    get('/events/basic', basic('ann:sec:ret')),
    { status: 200, auth: 'ann' },
  ],
  [
    'operation auth inside a group replaces it',
    get('/events/basic', { 'X-API-Key': 'header-key' }),
    unauthorized([BASIC]),
  ],
  // Hostile inputs.
  [
    'repeated Authorization line',
    get('/bearer', { authorization: ['Bearer good-token', 'Bearer good-token'] }),
    BAD_REQUEST,
  ],
  [
    'repeated API-key header line',
    get('/header', { 'X-API-Key': ['header-key', 'header-key'] }),
    BAD_REQUEST,
  ],
  [
    'scheme in odd casing',
    get('/bearer', { authorization: 'bEaReR good-token' }),
    { status: 200, auth: ANN },
  ],
  [
    'several spaces after the scheme',
    get('/bearer', { authorization: 'Bearer good-token' }),
    { status: 200, auth: ANN },
  ],
  [
    'a tab after the scheme',
    get('/bearer', { authorization: 'Bearer\tgood-token' }),
    unauthorized([BEARER_INVALID]),
  ],
  [
    'scheme word glued to more letters',
    get('/bearer', { authorization: 'Bearerx good-token' }),
    unauthorized([BEARER]),
  ],
  ['over-long token', get('/bearer', bearer('a'.repeat(5000))), unauthorized([BEARER_INVALID])],
  ['non-ASCII token', get('/bearer', bearer('tökén')), unauthorized([BEARER_INVALID])],
  ['non-ASCII API key', get('/header', { 'X-API-Key': 'kéy' }), unauthorized([HEADER])],
  [
    'unauthenticated POST with a malformed body',
    {
      method: 'POST',
      path: '/inherit',
      headers: { 'content-type': 'application/json' },
      body: '{"broken',
    },
    unauthorized([BEARER]),
  ],
  // What hooks throw.
  [
    'hook throws AuthenticationError(message)',
    get('/bearer', bearer('expired')),
    unauthorized([BEARER_INVALID], 'Token expired'),
  ],
  [
    'hook throws AuthorizationError',
    get('/bearer', bearer('denied')),
    { status: 403, detail: 'Forbidden', challenges: [] },
  ],
  [
    'hook throws StoreUnavailableError',
    get('/bearer', bearer('down')),
    { status: 503, detail: 'Service Unavailable', retryAfter: '7', challenges: [] },
  ],
  [
    'hook throws a plain Error',
    get('/bearer', bearer('boom')),
    { status: 500, detail: 'Internal Server Error', challenges: [] },
  ],
  [
    'hook throws a non-Error',
    get('/bearer', bearer('string')),
    { status: 500, detail: 'Internal Server Error' },
  ],
  [
    'hook throws an error with a handler',
    get('/bearer', bearer('teapot')),
    { status: 418, detail: "I'm a teapot" },
  ],
];

export const cases: readonly ContractCase[] = rows.map(([name, request, expected]) => ({
  name,
  request,
  expected,
}));
