// The contract as a table: each case is a request and what every adapter must answer.
import { decodeJwt } from 'jose';
import { issueCsrfToken } from '../../src/csrf/index.js';
import { dpopNonces } from '../../src/dpop/dpop-nonces.js';
import { proofKey, signProof, type ProofInit, type ProofKey } from '../helpers/dpop-proof.js';
import { clientCertHeader, thumbprint, type Issued } from '../helpers/pki.js';
import {
  accessToken,
  BOB,
  csrf,
  NONCE_SECRET,
  pki,
  SAM,
  type Method,
  type Shape,
} from './declarations.js';
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
  /** The `auth` the middleware after the app-wide declaration saw (`null` when none). */
  readonly seen?: unknown;
  /** A whole body other than the handler's `{ auth }` (a 200 of vouch's own). */
  readonly body?: unknown;
  readonly allowOrigin?: string;
  /** The `DPoP-Nonce` sent: one of these (the nonce of the moment may move on during a run). */
  readonly dpopNonce?: readonly string[];
}

export interface ContractCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly expected: Expected;
  /** A request sent first, which must answer 200: the case is what the next one meets. */
  readonly before?: ContractRequest;
  /** What the app must have for the case to run on an engine. */
  readonly shape?: Shape;
}

const BEARER = 'Bearer realm="api"';
const BEARER_INVALID = 'Bearer realm="api", error="invalid_token"';
const BEARER_INVALID_REQUEST = 'Bearer realm="api", error="invalid_request"';
const BASIC = 'Basic realm="api", charset="UTF-8"';
const QUERY = 'APIKey realm="api", in="query", name="api_key"';
const HEADER = 'APIKey realm="api", in="header", name="X-API-Key"';
const ANN = { user: 'ann' };
const RESOURCE_BEARER = 'Bearer realm="api"';
const METADATA =
  ', resource_metadata="https://api.example/.well-known/oauth-protected-resource/mcp"';
const METADATA_BODY = {
  resource: 'https://api.example/mcp',
  authorization_servers: ['https://login.example'],
  scopes_supported: ['mcp:read', 'mcp:tools'],
  bearer_methods_supported: ['header'],
  // The DPoP routes take the resource's tokens bound, its other routes as Bearer too.
  dpop_signing_alg_values_supported: ['ES256'],
  dpop_bound_access_tokens_required: false,
};
/** A 403 naming every scope needed, pointing to the resource's metadata. */
const resourceInsufficient = (scopes: string) => ({
  status: 403,
  detail: 'Forbidden',
  challenges: [`${RESOURCE_BEARER}, error="insufficient_scope", scope="${scopes}"${METADATA}`],
});

type Headers = Record<string, string | string[]>;
const send = (method: Method, path: string, headers: Headers, body?: string): ContractRequest =>
  body === undefined ? { method, path, headers } : { method, path, headers, body };
const get = (path: string, headers: Headers = {}) => send('GET', path, headers);
const post = (path: string, headers: Headers, body?: string) => send('POST', path, headers, body);
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
/** RFC 6750 §3.1: a Bearer request with more than one token, or by more than one method. */
const BEARER_BAD_REQUEST = { ...BAD_REQUEST, challenges: [BEARER_INVALID_REQUEST] } as const;

// Sessions and CSRF. Tokens come from the library, as a sign-in issues them: bound to sam's
// session id (bob's for an attacker's own), or to the cookie key.
const SAM_USER = { user: 'sam' };
const SAM_TOKEN = csrf.issue(SAM).token;
const SESSION_OK = { status: 200, auth: SAM_USER, cacheControl: 'private', challenges: [] };
const CSRF_FAILED = { status: 403, detail: 'CSRF check Failed', challenges: [] } as const;
const SITE = { origin: 'https://app.example' };
const EVIL = 'https://evil.example';
const cookies = (credential: string, token: string) => ({
  cookie: `${credential}; csrftoken=${token}`,
});
const token = (value: string) => ({ 'X-CSRFToken': value });
/** A cookie credential, and one token in both the CSRF cookie and the header. */
const withToken = (credential: string, value: string) => ({
  ...cookies(credential, value),
  ...token(value),
});
const SAM_COOKIE = `sessionid=${SAM}`;
/** What a page of the site adds to sam's requests: his cookies and the token in the header. */
const SAM_CSRF = withToken(SAM_COOKIE, SAM_TOKEN);
const FROM_SITE = { ...SITE, ...SAM_CSRF };
/** A form post from a page of the site, with sam's cookies; the token goes in the body. */
const FORM = {
  ...SITE,
  ...cookies(SAM_COOKIE, SAM_TOKEN),
  'content-type': 'application/x-www-form-urlencoded',
};
const field = (value: string) => `name=rex&csrfmiddlewaretoken=${encodeURIComponent(value)}`;
const BOB_TOKEN = csrf.issue(BOB).token;
const KEY_TOKEN = csrf.issue('cookie-key').token;
const KEY_COOKIE = 'X-API-KEY=cookie-key';

const insufficient = (scope: string) => ({
  status: 403,
  detail: 'Forbidden',
  challenges: [`Bearer realm="api", error="insufficient_scope", scope="${scope}"`],
});

// DPoP (RFC 9449). Proofs are signed as the table is built, each sent once per run: the replay
// store remembers every one accepted. Tokens are minted with the declared issuer's key.
const PROOF_KEY = await proofKey('ES256');
const OTHER_KEY = await proofKey('ES256');
const BOUND = await accessToken({ scope: 'mcp:tools', cnf: { jkt: PROOF_KEY.jkt } });
const BOUND_READER = await accessToken({ scope: 'mcp:read', cnf: { jkt: PROOF_KEY.jkt } });
const UNBOUND = await accessToken({ scope: 'mcp:tools' });
/** `Authorization: DPoP <token>` and a fresh proof for GET `path` of the resource's origin. */
async function dpop(
  path: string,
  token = BOUND,
  init: Partial<ProofInit> = {},
  key: ProofKey = PROOF_KEY,
): Promise<Headers> {
  const proof = await signProof(key, { htu: `https://api.example${path}`, token, ...init });
  return { authorization: `DPoP ${token}`, dpop: proof };
}
/** The DPoP challenge of a route of the resource, with `error` and the route's `scope`. */
const dpopChallenge = (error?: string, scope = ', scope="mcp:tools"') =>
  `DPoP realm="api"${error === undefined ? '' : `, error="${error}"`}, algs="ES256"${scope}${METADATA}`;
const MCP_BEARER = `${RESOURCE_BEARER}, scope="mcp:tools"${METADATA}`;
const MCP_BEARER_INVALID = `${RESOURCE_BEARER}, error="invalid_token", scope="mcp:tools"${METADATA}`;
const NONCES = dpopNonces({ secret: NONCE_SECRET });
/** The nonces a run may be sent: the one of now, or of the next window (300 s) if it moved on. */
const NONCE_NOW = [NONCES.issue(Date.now()), NONCES.issue(Date.now() + 300_000)];
const REPLAYED = await dpop('/mcp/dpop');
const TWO_PROOFS = [
  await signProof(PROOF_KEY, { htu: 'https://api.example/mcp/dpop', token: BOUND }),
  await signProof(PROOF_KEY, { htu: 'https://api.example/mcp/dpop', token: BOUND }),
];
const dpopRows: readonly (readonly [string, ContractRequest, Expected])[] = [
  [
    'DPoP: a bound token and its proof',
    get('/mcp/dpop', await dpop('/mcp/dpop')),
    { status: 200, auth: decodeJwt(BOUND), challenges: [] },
  ],
  [
    'DPoP: a Bearer token where only DPoP is accepted',
    get('/mcp/dpop', bearer(UNBOUND)),
    unauthorized([dpopChallenge()]),
  ],
  ['DPoP: no credential', get('/mcp/dpop'), unauthorized([dpopChallenge()])],
  [
    'DPoP: a proof for another URL',
    get('/mcp/dpop', await dpop('/mcp/dpop', BOUND, { htu: 'https://api.example/mcp/other' })),
    unauthorized([dpopChallenge('invalid_dpop_proof')]),
  ],
  [
    "DPoP: a proof by a key other than the token's cnf.jkt",
    get('/mcp/dpop', await dpop('/mcp/dpop', BOUND, {}, OTHER_KEY)),
    unauthorized([dpopChallenge('invalid_token')]),
  ],
  [
    'DPoP: two DPoP header lines',
    get('/mcp/dpop', { ...(await dpop('/mcp/dpop')), dpop: TWO_PROOFS }),
    unauthorized([dpopChallenge('invalid_dpop_proof')]),
  ],
  [
    'DPoP: a token without the scope',
    get('/mcp/dpop', await dpop('/mcp/dpop', BOUND_READER)),
    {
      status: 403,
      detail: 'Forbidden',
      challenges: [dpopChallenge('insufficient_scope')],
    },
  ],
  [
    'DPoP or Bearer: a bound token and its proof',
    get('/mcp/dpop-or-bearer', await dpop('/mcp/dpop-or-bearer')),
    { status: 200, auth: decodeJwt(BOUND), challenges: [] },
  ],
  [
    'DPoP or Bearer: an unbound token as Bearer',
    get('/mcp/dpop-or-bearer', bearer(UNBOUND)),
    { status: 200, auth: decodeJwt(UNBOUND), challenges: [] },
  ],
  [
    'DPoP or Bearer: a bound token as Bearer is refused, both challenge',
    get('/mcp/dpop-or-bearer', bearer(BOUND)),
    unauthorized([dpopChallenge(), MCP_BEARER_INVALID]),
  ],
  [
    'DPoP or Bearer: a DPoP token without a proof',
    get('/mcp/dpop-or-bearer', { authorization: `DPoP ${BOUND}` }),
    unauthorized([dpopChallenge('invalid_dpop_proof'), MCP_BEARER]),
  ],
  [
    'DPoP nonces: a proof without one gets the nonce to retry with',
    get('/mcp/dpop-nonce', await dpop('/mcp/dpop-nonce')),
    {
      ...unauthorized([dpopChallenge('use_dpop_nonce', '')]),
      dpopNonce: NONCE_NOW,
    },
  ],
  [
    'DPoP nonces: a proof with the nonce',
    get(
      '/mcp/dpop-nonce',
      await dpop('/mcp/dpop-nonce', BOUND, { claims: { nonce: NONCE_NOW[0] } }),
    ),
    { status: 200, auth: decodeJwt(BOUND), challenges: [] },
  ],
];

// Client certificates: the suite's client is the app's trusted proxy, which forwards them as
// Client-Cert (RFC 9440); the certificates are the run's test PKI. A certificate authenticates
// in no HTTP scheme, so its refusals send no challenge; a token bound to one is Bearer's. A
// certificate that cannot be used refuses the request wherever it is read, with the route's
// challenges as when no credential was sent, but for a token presented beside it (refused too).
const forwarded = (issued: Issued) => ({ 'client-cert': clientCertHeader(issued.der) });
const CLIENT_CERT = clientCertHeader(pki.client.der);
const CERTIFICATE_BOUND = await accessToken({
  scope: 'mcp:tools',
  cnf: { 'x5t#S256': thumbprint(pki.client.der) },
});
const boundWith = (headers: Headers) => ({ ...bearer(CERTIFICATE_BOUND), ...headers });
const KEY = { 'X-API-Key': 'header-key' };
/** The resource's Bearer challenge on a route that requires no scope. */
const RESOURCE_ONLY = `${RESOURCE_BEARER}${METADATA}`;
const RESOURCE_ONLY_INVALID = `${RESOURCE_BEARER}, error="invalid_token"${METADATA}`;
const certificateRows: readonly (readonly [string, ContractRequest, Expected])[] = [
  [
    'mTLS: a certificate of the test CA, forwarded by the trusted proxy, private',
    get('/mtls', forwarded(pki.client)),
    { status: 200, auth: { partner: 'CN=client-1' }, cacheControl: 'private', challenges: [] },
  ],
  ['mTLS: no certificate, 401 without challenge', get('/mtls'), unauthorized([])],
  [
    'mTLS: a certificate of another CA, refused by map',
    get('/mtls', forwarded(pki.stranger)),
    unauthorized([]),
  ],
  ['mTLS: an expired certificate', get('/mtls', forwarded(pki.expired)), unauthorized([])],
  ['mTLS: a certificate not yet valid', get('/mtls', forwarded(pki.notYetValid)), unauthorized([])],
  [
    'mTLS: a Client-Cert that is no Byte Sequence (no colons)',
    get('/mtls', { 'client-cert': CLIENT_CERT.slice(1, -1) }),
    unauthorized([]),
  ],
  [
    'mTLS: a Client-Cert whose bytes are no certificate',
    get('/mtls', { 'client-cert': ':AQID:' }),
    unauthorized([]),
  ],
  [
    'mTLS: Client-Cert on two lines',
    get('/mtls', { 'client-cert': [CLIENT_CERT, CLIENT_CERT] }),
    unauthorized([]),
  ],
  [
    'mTLS: Client-Cert from a peer the edge does not trust is forged',
    get('/mtls/elsewhere', forwarded(pki.client)),
    unauthorized([]),
  ],
  [
    'mTLS or key: a forged Client-Cert beside a valid key is refused, the key unheard',
    get('/mtls/elsewhere/or-key', { ...forwarded(pki.client), ...KEY }),
    unauthorized([HEADER]),
  ],
  [
    'mTLS or key: a forged Client-Cert-Chain beside a valid key is refused',
    get('/mtls/elsewhere/or-key', { 'client-cert-chain': clientCertHeader(pki.ca.der), ...KEY }),
    unauthorized([HEADER]),
  ],
  [
    'mTLS or key: without Client-Cert from the peer, the key',
    get('/mtls/elsewhere/or-key', KEY),
    { status: 200, auth: 'header-app', cacheControl: 'private', challenges: [] },
  ],
  [
    'mTLS in an all-of group: a forged Client-Cert refuses a valid Bearer listed first',
    get('/mtls/elsewhere/group', { ...forwarded(pki.client), ...bearer('good-token') }),
    unauthorized([BEARER, HEADER]),
  ],
  [
    'mTLS in an all-of group: without Client-Cert, the Bearer',
    get('/mtls/elsewhere/group', bearer('good-token')),
    { status: 200, auth: ANN, challenges: [] },
  ],
  [
    'mTLS or key: from the trusted proxy, a valid certificate wins',
    get('/mtls/or-key', { ...forwarded(pki.client), ...KEY }),
    { status: 200, auth: { partner: 'CN=client-1' }, cacheControl: 'private', challenges: [] },
  ],
  [
    'mTLS or key: from the trusted proxy without Client-Cert, the key',
    get('/mtls/or-key', KEY),
    { status: 200, auth: 'header-app', cacheControl: 'private', challenges: [] },
  ],
  [
    'mTLS or key: from the trusted proxy, a certificate map refuses leaves the key',
    get('/mtls/or-key', { ...forwarded(pki.stranger), ...KEY }),
    { status: 200, auth: 'header-app', cacheControl: 'private', challenges: [] },
  ],
  [
    'mTLS or key: from the trusted proxy, Client-Cert on two lines is refused',
    get('/mtls/or-key', { 'client-cert': [CLIENT_CERT, CLIENT_CERT], ...KEY }),
    unauthorized([HEADER]),
  ],
  [
    'certificate-bound token: with its certificate',
    get('/mcp/certificate', boundWith(forwarded(pki.client))),
    { status: 200, auth: decodeJwt(CERTIFICATE_BOUND), challenges: [] },
  ],
  [
    'certificate-bound token: with another certificate',
    get('/mcp/certificate', boundWith(forwarded(pki.otherClient))),
    unauthorized([MCP_BEARER_INVALID]),
  ],
  [
    'certificate-bound token: without a certificate',
    get('/mcp/certificate', boundWith({})),
    unauthorized([MCP_BEARER_INVALID]),
  ],
  [
    'certificate-bound token: with a malformed Client-Cert',
    get('/mcp/certificate', boundWith({ 'client-cert': [CLIENT_CERT, CLIENT_CERT] })),
    unauthorized([MCP_BEARER_INVALID]),
  ],
  [
    'certificate-bound route: an unbound token, without a certificate',
    get('/mcp/certificate', bearer(UNBOUND)),
    { status: 200, auth: decodeJwt(UNBOUND), challenges: [] },
  ],
  [
    'certificate-bound route: an unbound token with a malformed Client-Cert is refused',
    get('/mcp/certificate', { ...bearer(UNBOUND), 'client-cert': ':AQ ID:' }),
    unauthorized([MCP_BEARER_INVALID]),
  ],
  [
    'certificate-bound JWT or key: a forged Client-Cert beside a valid key is refused',
    get('/mcp/certificate/elsewhere/or-key', { ...forwarded(pki.client), ...KEY }),
    unauthorized([HEADER, RESOURCE_ONLY]),
  ],
  [
    'certificate-bound JWT or key: a forged Client-Cert-Chain beside a valid key is refused',
    get('/mcp/certificate/elsewhere/or-key', {
      'client-cert-chain': clientCertHeader(pki.ca.der),
      ...KEY,
    }),
    unauthorized([HEADER, RESOURCE_ONLY]),
  ],
  [
    'certificate-bound JWT or key: a forged Client-Cert refuses the bound token beside it too',
    get('/mcp/certificate/elsewhere/or-key', boundWith({ ...forwarded(pki.client), ...KEY })),
    unauthorized([HEADER, RESOURCE_ONLY_INVALID]),
  ],
  [
    'certificate-bound JWT or key: without Client-Cert from the peer, the key',
    get('/mcp/certificate/elsewhere/or-key', KEY),
    { status: 200, auth: 'header-app', cacheControl: 'private', challenges: [] },
  ],
  [
    'certificate-bound JWT or key: without Client-Cert from the peer, an unbound token',
    get('/mcp/certificate/elsewhere/or-key', bearer(UNBOUND)),
    { status: 200, auth: decodeJwt(UNBOUND), challenges: [] },
  ],
  [
    'certificate-bound JWT or key: from the trusted proxy, the bound token with its certificate',
    get('/mcp/certificate/or-key', boundWith({ ...forwarded(pki.client), ...KEY })),
    { status: 200, auth: decodeJwt(CERTIFICATE_BOUND), challenges: [] },
  ],
  [
    'certificate-bound JWT or key: from the trusted proxy, a token bound elsewhere leaves the key',
    get('/mcp/certificate/or-key', boundWith({ ...forwarded(pki.otherClient), ...KEY })),
    { status: 200, auth: 'header-app', cacheControl: 'private', challenges: [] },
  ],
  [
    'certificate-bound JWT or key: from the trusted proxy, Client-Cert on two lines is refused',
    get('/mcp/certificate/or-key', { 'client-cert': [CLIENT_CERT, CLIENT_CERT], ...KEY }),
    unauthorized([RESOURCE_ONLY, HEADER]),
  ],
  [
    'DPoP over certificate-bound JWTs, or key: a forged Client-Cert refuses the DPoP token',
    get('/mcp/dpop/elsewhere/or-key', {
      ...(await dpop('/mcp/dpop/elsewhere/or-key')),
      ...forwarded(pki.client),
      ...KEY,
    }),
    unauthorized([dpopChallenge('invalid_token', ''), HEADER]),
  ],
  [
    'DPoP over certificate-bound JWTs, or key: a forged Client-Cert beside a valid key is refused',
    get('/mcp/dpop/elsewhere/or-key', { ...forwarded(pki.client), ...KEY }),
    unauthorized([dpopChallenge(undefined, ''), HEADER]),
  ],
  [
    'DPoP over certificate-bound JWTs, or key: without Client-Cert, the DPoP token',
    get('/mcp/dpop/elsewhere/or-key', { ...(await dpop('/mcp/dpop/elsewhere/or-key')), ...KEY }),
    { status: 200, auth: decodeJwt(BOUND), challenges: [] },
  ],
];

const rows: readonly (readonly [string, ContractRequest, Expected, Shape?])[] = [
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
  [
    "a handler's own Cache-Control is kept, not made private",
    get('/header/own-cache', { 'X-API-Key': 'header-key' }),
    { status: 200, auth: 'header-app', cacheControl: 'no-store' },
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
  [
    'function accepted, private',
    get('/function', { 'x-client': 'robot' }),
    { status: 200, auth: 'robot', cacheControl: 'private' },
  ],
  ['function refuses: 401 without challenge', get('/function'), unauthorized([])],
  [
    'cookie key given twice',
    get('/cookie', { cookie: 'X-API-KEY=cookie-key; X-API-KEY=cookie-key' }),
    BAD_REQUEST,
  ],
  // Sessions.
  ['session accepted, private', get('/session', { cookie: SAM_COOKIE }), SESSION_OK],
  [
    "session: the handler's own Cache-Control is kept",
    get('/session/own-cache', { cookie: SAM_COOKIE }),
    { ...SESSION_OK, cacheControl: 'no-cache' },
  ],
  ['session absent: 401 without challenge', get('/session', { cookie: 'a=1' }), unauthorized([])],
  ['session unknown', get('/session', { cookie: 'sessionid=unknown' }), unauthorized([])],
  [
    'session cookie given twice',
    get('/session', { cookie: `sessionid=${SAM}; sessionid=${SAM}` }),
    BAD_REQUEST,
  ],
  [
    'session cookie given twice, on two lines',
    get('/session', { cookie: [`sessionid=${SAM}`, `sessionid=${BOB}`] }),
    BAD_REQUEST,
  ],
  [
    'session store unreachable',
    get('/session', { cookie: 'sessionid=store-down' }),
    { status: 503, detail: 'Service Unavailable', retryAfter: '5', challenges: [] },
  ],
  // CSRF: cookie credentials on unsafe methods need a trusted origin and the token.
  ...(['POST', 'PUT', 'DELETE'] as const).flatMap((method) => [
    [`CSRF: ${method} with the token`, send(method, '/session', FROM_SITE), SESSION_OK] as const,
    [
      `CSRF: ${method} without the token`,
      send(method, '/session', { ...SITE, ...cookies(SAM_COOKIE, SAM_TOKEN) }),
      CSRF_FAILED,
    ] as const,
  ]),
  ...(['HEAD', 'OPTIONS'] as const).map(
    (method) =>
      [
        `CSRF: ${method} is safe, no token or origin needed`,
        send(method, '/session', { origin: EVIL, cookie: SAM_COOKIE }),
        SESSION_OK,
      ] as const,
  ),
  [
    'CSRF: no CSRF cookie',
    post('/session', { ...SITE, cookie: SAM_COOKIE, ...token(SAM_TOKEN) }),
    CSRF_FAILED,
  ],
  [
    'CSRF: header and cookie hold different valid tokens',
    post('/session', { ...FROM_SITE, ...token(csrf.issue(SAM).token) }),
    CSRF_FAILED,
  ],
  [
    'CSRF: token signed with another secret',
    post('/session', { ...SITE, ...withToken(SAM_COOKIE, issueCsrfToken('not-the-secret', SAM)) }),
    CSRF_FAILED,
  ],
  [
    "CSRF: another session's token",
    post('/session', { ...SITE, ...withToken(SAM_COOKIE, BOB_TOKEN) }),
    CSRF_FAILED,
  ],
  [
    'CSRF: token header given twice',
    post('/session', { ...FROM_SITE, 'X-CSRFToken': [SAM_TOKEN, SAM_TOKEN] }),
    CSRF_FAILED,
  ],
  ['CSRF: untrusted Origin', post('/session', { ...FROM_SITE, origin: EVIL }), CSRF_FAILED],
  ['CSRF: neither Origin nor Referer', post('/session', SAM_CSRF), CSRF_FAILED],
  [
    'CSRF: trusted Referer without Origin',
    post('/session', { ...SAM_CSRF, referer: 'https://app.example/pets/new' }),
    SESSION_OK,
  ],
  [
    'CSRF: untrusted Referer without Origin',
    post('/session', { ...SAM_CSRF, referer: `${EVIL}/pets/new` }),
    CSRF_FAILED,
  ],
  [
    'CSRF: Sec-Fetch-Site same-origin',
    post('/session', { ...SAM_CSRF, 'sec-fetch-site': 'same-origin' }),
    SESSION_OK,
  ],
  [
    'CSRF: Sec-Fetch-Site cross-site beats a trusted Origin',
    post('/session', { ...FROM_SITE, 'sec-fetch-site': 'cross-site' }),
    CSRF_FAILED,
  ],
  [
    'CSRF: not checked for a session that is refused',
    post('/session', { cookie: 'sessionid=unknown' }),
    unauthorized([]),
  ],
  ['CSRF: exempt operation', post('/session/exempt', { cookie: SAM_COOKIE }), SESSION_OK],
  ['CSRF: form post, token in its field', post('/session', FORM, field(SAM_TOKEN)), SESSION_OK],
  ['CSRF: form post without the field', post('/session', FORM, 'name=rex'), CSRF_FAILED],
  [
    "CSRF: form post, another session's token",
    post('/session', { ...FORM, ...cookies(SAM_COOKIE, BOB_TOKEN) }, field(BOB_TOKEN)),
    CSRF_FAILED,
  ],
  [
    'CSRF: form post, field given twice',
    post('/session', FORM, `${field(SAM_TOKEN)}&${field(SAM_TOKEN)}`),
    CSRF_FAILED,
  ],
  [
    'CSRF: form post from an untrusted Origin',
    post('/session', { ...FORM, origin: EVIL }, field(SAM_TOKEN)),
    CSRF_FAILED,
  ],
  [
    'CSRF on a cookie key: token bound to the key',
    post('/cookie', { ...SITE, ...withToken(KEY_COOKIE, KEY_TOKEN) }),
    { status: 200, auth: 'cookie-app', cacheControl: 'private' },
  ],
  [
    'CSRF on a cookie key: no token',
    post('/cookie', { ...SITE, ...cookies(KEY_COOKIE, KEY_TOKEN) }),
    CSRF_FAILED,
  ],
  [
    "CSRF on a cookie key: a session's token",
    post('/cookie', { ...SITE, ...withToken(KEY_COOKIE, SAM_TOKEN) }),
    CSRF_FAILED,
  ],
  // CSRF in a list [session, Bearer]: a cookie failing CSRF is unusable, the next one runs.
  [
    'CSRF: a Bearer POST needs no token',
    post('/session-or-bearer', bearer('good-token')),
    { status: 200, auth: ANN, challenges: [] },
  ],
  [
    'CSRF: the session with its token wins',
    post('/session-or-bearer', { ...FROM_SITE, ...bearer('good-token') }),
    SESSION_OK,
  ],
  [
    'CSRF: the session fails it, Bearer accepts',
    post('/session-or-bearer', { cookie: SAM_COOKIE, ...bearer('good-token') }),
    { status: 200, auth: ANN },
  ],
  [
    'CSRF: a form post without the field, Bearer accepts',
    post('/session-or-bearer', { ...FORM, ...bearer('good-token') }, 'name=rex'),
    { status: 200, auth: ANN },
  ],
  [
    'CSRF: the session fails it, no Bearer',
    post('/session-or-bearer', { cookie: SAM_COOKIE }),
    CSRF_FAILED,
  ],
  [
    'CSRF: the session fails it, Bearer rejected',
    post('/session-or-bearer', { cookie: SAM_COOKIE, ...bearer('wrong') }),
    CSRF_FAILED,
  ],
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
  // Middleware that hands on stands between the app's declaration and the others: the search
  // passes over it, and it sees what the deciding declaration authenticated.
  [
    "middleware sees the app's auth",
    get('/inherit', bearer('good-token')),
    { status: 200, auth: ANN, seen: ANN },
  ],
  [
    "past middleware, the operation's null replaces the app's",
    get('/public'),
    { status: 200, auth: null, seen: null, challenges: [] },
  ],
  [
    "past middleware, the operation's auth decides before it",
    get('/basic', basic('ann:sec:ret')),
    { status: 200, auth: 'ann', seen: 'ann' },
  ],
  [
    "past middleware, the group's auth decides before it",
    get('/events/list', { 'X-API-Key': 'header-key' }),
    { status: 200, auth: 'header-app', seen: 'header-app' },
  ],
  ['all(): the operation null on any method', post('/any', {}), { status: 200, auth: null }],
  // Groups in groups.
  [
    "nested group auth replaces its group's",
    get('/events/admin/list', { 'X-API-Key': 'header-key' }),
    unauthorized([BASIC]),
  ],
  [
    'nested group auth accepts',
    get('/events/admin/list', basic('ann:sec:ret')),
    { status: 200, auth: 'ann', seen: 'ann' },
  ],
  ['operation null inside a nested group', get('/events/admin/open'), { status: 200, auth: null }],
  // What may answer before a public route keeps the app's declaration (fail closed).
  ['a handler answering first', get('/shadowed'), unauthorized([BEARER]), 'answering handler'],
  [
    'a handler answering first, authenticated',
    get('/shadowed', bearer('good-token')),
    { status: 200, auth: ANN },
    'answering handler',
  ],
  [
    'a handler of all() answering first',
    get('/shadowed-by-all'),
    unauthorized([BEARER]),
    'answering handler',
  ],
  [
    "a handler handing on first: the route's auth is required as well",
    get('/handed-on', bearer('good-token')),
    unauthorized([BASIC]),
    'answering handler',
  ],
  ['a param callback first', get('/param/7'), unauthorized([BEARER]), 'param callback'],
  ['a mounted app', get('/mounted/open'), unauthorized([BEARER]), 'mounted app'],
  [
    'a mounted app, authenticated',
    get('/mounted/open', bearer('good-token')),
    { status: 200, auth: ANN },
    'mounted app',
  ],
  // Hostile inputs.
  [
    'repeated Authorization line',
    get('/bearer', { authorization: ['Bearer good-token', 'Bearer good-token'] }),
    BEARER_BAD_REQUEST,
  ],
  [
    'repeated Authorization line, Basic: no challenge',
    get('/basic', { authorization: ['Basic YW5uOnNlYzpyZXQ=', 'Basic YW5uOnNlYzpyZXQ='] }),
    BAD_REQUEST,
  ],
  // RFC 6750 §2: one method per request; access_token in the query is never a credential.
  [
    'Bearer in the header and access_token in the query',
    get('/bearer?access_token=good-token', bearer('good-token')),
    BEARER_BAD_REQUEST,
  ],
  [
    'Bearer in the header, another access_token in the query (app-wide)',
    get('/inherit?page=2&access_token=other', bearer('good-token')),
    BEARER_BAD_REQUEST,
  ],
  [
    'Bearer in the header, access_token percent-encoded in the query',
    get('/bearer?acc%65ss_token=x', bearer('good-token')),
    BEARER_BAD_REQUEST,
  ],
  [
    'a refused Bearer token and access_token in the query',
    get('/bearer?access_token=good-token', bearer('a,b')),
    BEARER_BAD_REQUEST,
  ],
  [
    'Bearer in the header, an empty access_token: one method',
    get('/bearer?access_token=', bearer('good-token')),
    { status: 200, auth: ANN, challenges: [] },
  ],
  [
    'access_token in the query alone is no credential',
    get('/bearer?access_token=good-token'),
    unauthorized([BEARER]),
  ],
  [
    'Basic in the header and access_token in the query: not Bearer',
    get('/basic?access_token=good-token', basic('ann:sec:ret')),
    { status: 200, auth: 'ann' },
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
  // Scopes (RFC 6750 §3.1): no credential 401, a credential without them 403, with them 200.
  ['scopes: no credential', get('/scoped'), unauthorized([BEARER])],
  ['scopes: refused token', get('/scoped', bearer('wrong')), unauthorized([BEARER_INVALID])],
  ['scopes: token without them', get('/scoped', bearer('good-token')), insufficient('pets:read')],
  [
    'scopes: token with them (scope claim)',
    get('/scoped', bearer('reader-token')),
    { status: 200, auth: { user: 'ann', scope: 'pets:read' } },
  ],
  [
    'scopes: token with them (scopes list)',
    get('/scoped', bearer('writer-token')),
    { status: 200, auth: { user: 'wes', scopes: ['pets:read', 'pets:write'] } },
  ],
  [
    'scopes: a key granting none, no challenge to name',
    get('/scoped-list', { 'X-API-Key': 'header-key' }),
    { status: 403, detail: 'Forbidden', challenges: [] },
  ],
  [
    'scopes: the list goes on to a credential that grants them',
    get('/scoped-list', { 'X-API-Key': 'header-key', ...bearer('writer-token') }),
    { status: 200, auth: { user: 'wes', scopes: ['pets:read', 'pets:write'] } },
  ],
  [
    'scopes: a token with too few, after a key',
    get('/scoped-list', { 'X-API-Key': 'header-key', ...bearer('reader-token') }),
    insufficient('pets:write'),
  ],
  [
    'hook throws an error with a handler',
    get('/bearer', bearer('teapot')),
    { status: 418, detail: "I'm a teapot" },
  ],
  [
    'resource: no token, the challenge names the scope and the metadata',
    get('/mcp/tools'),
    unauthorized([`${RESOURCE_BEARER}, scope="mcp:tools"${METADATA}`]),
  ],
  [
    'resource: a token refused',
    get('/mcp/tools', bearer('nope')),
    unauthorized([`${RESOURCE_BEARER}, error="invalid_token", scope="mcp:tools"${METADATA}`]),
  ],
  [
    'resource: a route without scopes names none',
    get('/mcp/open'),
    unauthorized([`${RESOURCE_BEARER}${METADATA}`]),
  ],
  [
    'resource: after a key, both challenge',
    get('/mcp/read'),
    unauthorized([HEADER, `${RESOURCE_BEARER}, scope="mcp:read"${METADATA}`]),
  ],
  [
    'resource: a token without the scope',
    get('/mcp/tools', bearer('other-token')),
    resourceInsufficient('mcp:tools'),
  ],
  [
    'resource: a token with the scope',
    get('/mcp/tools', bearer('tools-token')),
    { status: 200, auth: { sub: 'ann', scope: 'mcp:tools' }, challenges: [] },
  ],
  [
    'step-up: the handler asks for more, named with the route scope',
    get('/mcp/admin', bearer('tools-token')),
    resourceInsufficient('mcp:tools mcp:admin'),
  ],
  [
    'step-up: a token with both',
    get('/mcp/admin', bearer('admin-token')),
    { status: 200, auth: { sub: 'ann', scope: 'mcp:tools mcp:admin' }, challenges: [] },
  ],
  [
    'resource metadata: without credentials, to any origin, with the scopes of its routes',
    get('/.well-known/oauth-protected-resource/mcp'),
    { status: 200, body: METADATA_BODY, allowOrigin: '*', challenges: [] },
  ],
  [
    'resource metadata: at the well-known path alone too',
    get('/.well-known/oauth-protected-resource'),
    { status: 200, body: METADATA_BODY, allowOrigin: '*', challenges: [] },
  ],
  [
    'resource metadata: a credential changes nothing',
    get('/.well-known/oauth-protected-resource/mcp', bearer('nope')),
    { status: 200, body: METADATA_BODY, allowOrigin: '*', challenges: [] },
  ],
  [
    'resource metadata: a CORS preflight',
    send('OPTIONS', '/.well-known/oauth-protected-resource/mcp', {
      origin: 'https://client.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'mcp-protocol-version',
    }),
    { status: 204, body: undefined, allowOrigin: '*', challenges: [] },
  ],
];

export const cases: readonly ContractCase[] = [
  ...rows.map(([name, request, expected, shape]) =>
    shape === undefined ? { name, request, expected } : { name, request, expected, shape },
  ),
  ...[...dpopRows, ...certificateRows].map(([name, request, expected]) => ({
    name,
    request,
    expected,
  })),
  {
    name: 'DPoP: a proof sent again is refused',
    before: get('/mcp/dpop', REPLAYED),
    request: get('/mcp/dpop', REPLAYED),
    expected: unauthorized([dpopChallenge('invalid_dpop_proof')]),
  },
];
