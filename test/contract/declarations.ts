// The application every adapter builds for the contract suite, declared once without an engine.
import { X509Certificate } from 'node:crypto';
import { generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import {
  allOf,
  APIKeyCookie,
  APIKeyHeader,
  APIKeyQuery,
  AuthenticationError,
  AuthorizationError,
  edge,
  HttpBasic,
  grantedScopes,
  HttpBearer,
  InsufficientScopeError,
  StoreUnavailableError,
  type AuthSpec,
  type RequestView,
} from '../../src/index.js';
import { createCsrfVerifier, type CsrfOptions } from '../../src/csrf/index.js';
import { DPoPBearer } from '../../src/dpop/index.js';
import { JwtBearer } from '../../src/jwt/index.js';
import { ClientCertificateAuth } from '../../src/mtls/index.js';
import { protectedResource } from '../../src/oauth/index.js';
import { MemorySessionStore, SessionAuth } from '../../src/session/index.js';
import { testPki } from '../helpers/pki.js';

/** An error of the application's own, with an exception handler registered for it. */
export class TeapotError extends Error {}

export const bearer = new HttpBearer({
  authenticate: (_request, token) => {
    switch (token) {
      case 'good-token':
        return { user: 'ann' };
      case 'reader-token':
        return { user: 'ann', scope: 'pets:read' };
      case 'writer-token':
        return { user: 'wes', scopes: ['pets:read', 'pets:write'] };
      case 'expired':
        throw new AuthenticationError('Token expired');
      case 'denied':
        throw new AuthorizationError();
      case 'down':
        throw new StoreUnavailableError('pool exhausted', { retryAfter: 7 });
      case 'boom':
        throw new Error('secret internals');
      case 'string':
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what some code does
        throw 'not an error';
      case 'teapot':
        throw new TeapotError();
      default:
        return undefined;
    }
  },
});
/** An OAuth protected resource, and the Bearer tokens minted for it. */
export const resource = protectedResource({
  resource: 'https://api.example/mcp',
  authorizationServers: ['https://login.example'],
});
export const resourceBearer = new HttpBearer({
  resource,
  tokens: new Map([
    ['tools-token', { sub: 'ann', scope: 'mcp:tools' }],
    ['admin-token', { sub: 'ann', scope: 'mcp:tools mcp:admin' }],
    ['other-token', { sub: 'ann', scope: 'pets:read' }],
  ]),
});

const ISSUER = 'https://login.example';
/**
 * The authorization server's signing key, made when the module loads: each engine's run mints
 * its tokens with a key of its own, which its `JwtBearer` is given locally.
 */
const signing = await generateKeyPair('RS256');
/** An RFC 9068 access token for the resource, with `claims` (a `cnf.jkt` binds it to a key). */
export function accessToken(claims: JWTPayload): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: 'agent', sub: 'ann', ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(resource.resource)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(signing.privateKey);
}
export const jwt = new JwtBearer({
  resource,
  issuer: ISSUER,
  keys: signing.publicKey,
  algorithms: ['RS256'],
});
/** DPoP over the resource's JWTs: `htu` is https://api.example and the request's path. */
export const dpop = new DPoPBearer({ tokens: jwt, algorithms: ['ES256'] });
/** The secret of the server nonces of {@link dpopWithNonces}, for the table to expect them. */
export const NONCE_SECRET = 'contract-suite-dpop-nonce-secret-of-32-bytes-or-more';
export const dpopWithNonces = new DPoPBearer({
  tokens: jwt,
  algorithms: ['ES256'],
  nonces: { secret: NONCE_SECRET },
});

// Client certificates (RFC 8705, RFC 9440): the app stands behind a TLS-terminating proxy on
// this host, which forwards each verified certificate as Client-Cert. The suite's client, on
// 127.0.0.1, plays that proxy.
/** The test CA and its certificates, made once per test process (each engine's run). */
export const pki = testPki();
const TEST_CA = new X509Certificate(pki.ca.cert);
/** The edge of an app whose proxy runs on this host. */
const front = edge({ trustedProxies: 'loopback' });
/** A partner holds a certificate the test CA signed (map checks it): `auth` is its subject. */
export const partners = new ClientCertificateAuth({
  edge: front,
  map: (certificate) =>
    certificate.verify(TEST_CA.publicKey) ? { partner: certificate.subject } : undefined,
});
/** The edge of an app whose proxies are elsewhere: a Client-Cert from loopback is forged. */
const elsewhere = edge({ trustedProxies: '10.0.0.0/8' });
/** The same partners, behind {@link elsewhere}. */
export const partnersElsewhere = new ClientCertificateAuth({
  edge: elsewhere,
  map: (certificate) => ({ partner: certificate.subject }),
});
/** The resource's JWTs read with the certificate `edge` says: bound ones over theirs only. */
const certificateBound = (clientCertificates: typeof front) =>
  new JwtBearer({
    resource,
    issuer: ISSUER,
    keys: signing.publicKey,
    algorithms: ['RS256'],
    clientCertificates,
  });
/** The resource's JWTs, certificate-bound ones (`cnf` `x5t#S256`) over their certificate only. */
export const certificateJwt = certificateBound(front);
/** The same behind {@link elsewhere}, and DPoP over them: a Client-Cert from loopback is forged. */
export const certificateJwtElsewhere = certificateBound(elsewhere);
export const dpopElsewhere = new DPoPBearer({
  tokens: certificateJwtElsewhere,
  algorithms: ['ES256'],
});

export const basic = new HttpBasic({
  authenticate: (_request, username, password) =>
    (username === 'ann' && password === 'sec:ret') || (username === 'zoë' && password === 'pw')
      ? username
      : undefined,
});
export const queryKey = new APIKeyQuery({
  paramName: 'api_key',
  keys: new Map([['query-key', 'query-app']]),
});
export const headerKey = new APIKeyHeader({
  paramName: 'X-API-Key',
  keys: new Map([['header-key', 'header-app']]),
});
export const cookieKey = new APIKeyCookie({
  paramName: 'X-API-KEY',
  keys: new Map([['cookie-key', 'cookie-app']]),
});

/** A user as the session store keeps it. */
export interface User {
  readonly user: string;
}

/** Sessions in memory, except that the store cannot be reached for the id `store-down`. */
class FlakySessionStore extends MemorySessionStore<User> {
  override get(sessionId: string): Promise<User | undefined> {
    if (sessionId !== 'store-down') return super.get(sessionId);
    return Promise.reject(
      new StoreUnavailableError('session store unreachable', { retryAfter: 5 }),
    );
  }
}
const sessions = new FlakySessionStore();
export const session = new SessionAuth({ store: sessions });
/** Live sessions, signed in before any app starts: sam's, and bob's (the attacker's own). */
export const SAM = await sessions.create({ user: 'sam' });
export const BOB = await sessions.create({ user: 'bob' });

/** CSRF protection of every adapter: the same secret, so a token issued once works on all. */
export const csrfOptions: CsrfOptions = {
  secret: 'contract-suite-csrf-secret',
  trustedOrigins: ['https://app.example'],
};
/** Issues tokens as a sign-in would, through the library's own API. */
export const csrf = createCsrfVerifier(csrfOptions);

export function robot(request: RequestView): string | undefined {
  return request.headers['x-client'] === 'robot' ? 'robot' : undefined;
}

/** The methods the contract declares routes for (HEAD is served by GET routes). */
export type Method = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'DELETE';

/**
 * One route: `auth` undefined inherits from its group or the app; `csrf: false` exempts the
 * operation from CSRF protection. `ALL` declares it for every method (`all()`).
 */
export interface RouteDeclaration {
  readonly method: Exclude<Method, 'HEAD'> | 'ALL';
  readonly path: string;
  readonly auth?: AuthSpec;
  readonly csrf?: false;
  /** Scopes the credential must grant (only with `auth`: Hono and Express declare them there). */
  readonly scopes?: readonly string[];
  /** A `Cache-Control` the handler sets of its own. */
  readonly cacheControl?: string;
  /** Scopes the handler asks for beyond the route's, throwing when the caller lacks them. */
  readonly stepUp?: readonly string[];
}

/**
 * What every route's handler answers: the `auth` it saw, after asking for the scopes of a
 * step-up that the credential must grant as well.
 */
export function handlerAnswer(route: RouteDeclaration, auth: unknown): { auth: unknown } {
  const needed = route.stepUp ?? [];
  const granted = grantedScopes(auth);
  if (!needed.every((scope) => granted.includes(scope))) {
    throw new InsufficientScopeError({ scopes: needed });
  }
  return { auth: auth ?? null };
}

/**
 * Routes mounted under a prefix with their own `auth`, and groups within it (a Fastify router, a
 * Hono sub-app, an Express Router).
 */
export interface GroupDeclaration {
  readonly prefix: string;
  readonly auth: AuthSpec;
  readonly routes: readonly RouteDeclaration[];
  readonly groups?: readonly GroupDeclaration[];
}

/** What only some engines have: where a harness lacks it, the cases needing it do not run. */
export type Shape =
  /** A handler for the path registered before the route, which it keeps from running. */
  | 'answering handler'
  /** A callback Express runs for a parameter of the path, before the route. */
  | 'param callback'
  /** An app mounted in the app, run as one function whose stacks vouch does not read. */
  | 'mounted app';

/**
 * A GET route (`auth`, by default `null`) behind something of a `shape` that may answer before
 * it runs. An answering handler is registered with `all()` where `all` says so, else `get()`;
 * it calls `next()` where `handsOn` says so, else it answers.
 */
export interface GuardedDeclaration {
  readonly shape: Shape;
  readonly path: string;
  readonly auth?: AuthSpec;
  readonly all?: boolean;
  readonly handsOn?: boolean;
}

/**
 * The whole application: app-wide `auth`, routes and groups. Every handler answers its auth.
 * Right after the app-wide `auth`, every harness registers middleware that hands on (as a logger
 * does) and sends, in an `x-seen-auth` header, the `auth` it saw.
 */
export interface AppDeclaration {
  readonly auth: AuthSpec;
  /** CSRF protection for cookie credentials on unsafe methods, the API's and every route's. */
  readonly csrf: CsrfOptions;
  readonly routes: readonly RouteDeclaration[];
  readonly groups: readonly GroupDeclaration[];
  readonly guarded: readonly GuardedDeclaration[];
  /** The response of the registered exception handler for {@link TeapotError}. */
  readonly teapot: { readonly status: 418; readonly detail: string };
  /** The protected resource whose metadata every harness serves, after its routes. */
  readonly resource: typeof resource;
}

export const app: AppDeclaration = {
  auth: bearer,
  csrf: csrfOptions,
  routes: [
    { method: 'GET', path: '/inherit' },
    { method: 'POST', path: '/inherit' },
    { method: 'GET', path: '/bearer', auth: bearer },
    { method: 'GET', path: '/basic', auth: basic },
    { method: 'GET', path: '/query', auth: queryKey },
    { method: 'GET', path: '/header', auth: headerKey },
    { method: 'GET', path: '/header/own-cache', auth: headerKey, cacheControl: 'no-store' },
    { method: 'GET', path: '/cookie', auth: cookieKey },
    { method: 'POST', path: '/cookie', auth: cookieKey },
    { method: 'GET', path: '/function', auth: robot },
    { method: 'GET', path: '/multiple', auth: [queryKey, headerKey] },
    { method: 'GET', path: '/both', auth: allOf(bearer, headerKey) },
    { method: 'GET', path: '/public', auth: null },
    ...(['GET', 'OPTIONS', 'POST', 'PUT', 'DELETE'] as const).map((method) => ({
      method,
      path: '/session',
      auth: session,
    })),
    { method: 'POST', path: '/session/exempt', auth: session, csrf: false },
    { method: 'GET', path: '/session/own-cache', auth: session, cacheControl: 'no-cache' },
    { method: 'POST', path: '/session-or-bearer', auth: [session, bearer] },
    { method: 'GET', path: '/scoped', auth: bearer, scopes: ['pets:read'] },
    { method: 'GET', path: '/scoped-list', auth: [headerKey, bearer], scopes: ['pets:write'] },
    { method: 'ALL', path: '/any', auth: null },
    { method: 'GET', path: '/mcp/tools', auth: resourceBearer, scopes: ['mcp:tools'] },
    {
      method: 'GET',
      path: '/mcp/admin',
      auth: resourceBearer,
      scopes: ['mcp:tools'],
      stepUp: ['mcp:admin'],
    },
    { method: 'GET', path: '/mcp/read', auth: [headerKey, resourceBearer], scopes: ['mcp:read'] },
    { method: 'GET', path: '/mcp/open', auth: resourceBearer },
    // DPoP (RFC 9449): bound tokens only; then bound tokens by DPoP, unbound ones as Bearer.
    { method: 'GET', path: '/mcp/dpop', auth: dpop, scopes: ['mcp:tools'] },
    { method: 'GET', path: '/mcp/dpop-or-bearer', auth: [dpop, jwt], scopes: ['mcp:tools'] },
    { method: 'GET', path: '/mcp/dpop-nonce', auth: dpopWithNonces },
    // Client certificates forwarded by the proxy; certificate-bound tokens (RFC 8705 §3).
    { method: 'GET', path: '/mtls', auth: partners },
    { method: 'GET', path: '/mtls/elsewhere', auth: partnersElsewhere },
    // A forged certificate refuses the request wherever a certificate stands in its auth.
    { method: 'GET', path: '/mtls/or-key', auth: [partners, headerKey] },
    { method: 'GET', path: '/mtls/elsewhere/or-key', auth: [headerKey, partnersElsewhere] },
    {
      method: 'GET',
      path: '/mtls/elsewhere/group',
      auth: [bearer, allOf(headerKey, partnersElsewhere)],
    },
    { method: 'GET', path: '/mcp/certificate', auth: certificateJwt, scopes: ['mcp:tools'] },
    // So does a forged certificate where a certificate-bound token is read.
    { method: 'GET', path: '/mcp/certificate/or-key', auth: [certificateJwt, headerKey] },
    {
      method: 'GET',
      path: '/mcp/certificate/elsewhere/or-key',
      auth: [headerKey, certificateJwtElsewhere],
    },
    { method: 'GET', path: '/mcp/dpop/elsewhere/or-key', auth: [dpopElsewhere, headerKey] },
    // Another Bearer's scopes are not the resource's.
    { method: 'GET', path: '/pets/write', auth: bearer, scopes: ['pets:write'] },
  ],
  groups: [
    {
      prefix: '/events',
      auth: headerKey,
      routes: [
        { method: 'GET', path: '/list' },
        { method: 'GET', path: '/open', auth: null },
        { method: 'GET', path: '/basic', auth: basic },
      ],
      groups: [
        {
          prefix: '/admin',
          auth: basic,
          routes: [
            { method: 'GET', path: '/list' },
            { method: 'GET', path: '/open', auth: null },
          ],
        },
      ],
    },
  ],
  guarded: [
    { shape: 'answering handler', path: '/shadowed' },
    { shape: 'answering handler', path: '/shadowed-by-all', all: true },
    { shape: 'answering handler', path: '/handed-on', auth: basic, handsOn: true },
    { shape: 'param callback', path: '/param/:id' },
    { shape: 'mounted app', path: '/mounted/open' },
  ],
  teapot: { status: 418, detail: "I'm a teapot" },
  resource,
};
