import { sha256 } from '@noble/hashes/sha2.js';
import { claimValues, wholeNumber } from '../core/configuration-checks.js';
import { ConfigurationError, StoreUnavailableError } from '../core/errors.js';
import type { Awaitable, Nothing } from '../core/outcome.js';
import type { AuthRequest } from '../core/request.js';
import { utf8 } from '../core/utf8.js';
import { toBase64url } from '../internal/base64.js';
import { ExpiringCache } from '../internal/expiring-cache.js';
import { AccessTokenBearer, type AccessTokenBearerOptions } from './access-token-bearer.js';
import type { TokenCheck } from './certificate-possession.js';
import { confirms } from './confirmation.js';
import { AuthorizationServer, authorizationServer } from './authorization-server.js';
import {
  introspectToken,
  type IntrospectionCall,
  type IntrospectionClient,
  type IntrospectionClientAuthentication,
} from './introspect-token.js';
import {
  judgeIntrospection,
  type IntrospectionAnswer,
  type IntrospectionExpectations,
} from './judge-introspection.js';
import { absoluteUrl, type ProtectedResource } from './protected-resource.js';

/** Turns an accepted introspection answer into `request.auth`, or returns nothing to refuse. */
export type IntrospectionMap<TAuth> = (
  answer: IntrospectionAnswer,
  request: AuthRequest,
) => Awaitable<TAuth | Nothing>;

/** Trusted issuers: an answer's `iss`, when it has one, must be among them. */
type Issuers = string | readonly string[] | false;

/**
 * Options of {@link IntrospectionBearer}: the endpoint, the client it introspects as, and either
 * a `resource` (its tokens' one audience) or an `audience` and an `issuer`.
 */
export type IntrospectionBearerOptions<TAuth = IntrospectionAnswer> =
  IntrospectionBearerSettings<TAuth> &
    (
      | {
          /**
           * The protected resource whose tokens it accepts: a token's `aud` must be that
           * resource identifier alone (as a resource's JWTs must), `issuer` defaults to its
           * authorization servers, and challenges point to its metadata.
           */
          readonly resource: ProtectedResource;
          /** Left out, or the resource's identifier itself (as `JwtBearer` takes it). */
          readonly audience?: string | readonly [string];
          /** The issuers an answer's `iss` may name (default: the resource's authorization servers). */
          readonly issuer?: Issuers;
        }
      | {
          readonly resource?: undefined;
          /** The `aud` a token must carry (one of several, among others); `false` for any, deliberately. */
          readonly audience: string | readonly string[] | false;
          /** The issuers an answer's `iss` may name; `false` for any, deliberately. */
          readonly issuer: Issuers;
        }
    );

/** The options of {@link IntrospectionBearer} other than what it checks the answer against. */
export interface IntrospectionBearerSettings<TAuth> extends Omit<
  AccessTokenBearerOptions,
  'consultsStore'
> {
  /**
   * The authorization server's RFC 7662 endpoint (its metadata's `introspection_endpoint`):
   * `https`, or `http` on a loopback host; no credentials in it. Leave it out to discover it
   * from `authorizationServer`, or from the resource's one authorization server.
   */
  readonly introspectionEndpoint?: string | URL;
  /**
   * The authorization server whose metadata names the endpoint (its issuer, or an
   * {@link AuthorizationServer}), read when the first token is introspected; instead of
   * `introspectionEndpoint`.
   */
  readonly authorizationServer?: string | AuthorizationServer;
  /** The client id the resource introspects as (a confidential client of the server). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** How it authenticates to the endpoint (default `client_secret_basic`). */
  readonly clientAuthentication?: IntrospectionClientAuthentication;
  /** Seconds of clock skew allowed when checking `exp` and `nbf` (default 5). */
  readonly clockTolerance?: number;
  /** Milliseconds one introspection may take (default 5000); beyond it, 503. */
  readonly timeout?: number;
  /** Milliseconds an active answer is reused at most (default 60000), never past its `exp`. */
  readonly cacheMaxAge?: number;
  /** Milliseconds a refusal is reused (default 5000): how long a flood of bad tokens is spared. */
  readonly negativeCacheMaxAge?: number;
  /** Answers kept at most, the least recently used leaving first (default 10000). */
  readonly cacheSize?: number;
  /**
   * Makes `request.auth` from the accepted answer (and the request); without it, `request.auth`
   * is the answer. Return `undefined`, `null` or `false` to refuse the token (401). Scopes are
   * read from what it returns (`scope`): keep them there if routes require scopes.
   */
  readonly map?: IntrospectionMap<TAuth>;
}

/**
 * Bearer tokens checked by asking the authorization server (RFC 7662 token introspection): for
 * opaque access tokens, which only their issuer can read. The token goes to the endpoint in a
 * form-encoded POST, the resource authenticating as a confidential client; an answer accepts
 * only when `active` is `true` and its claims pass the checks the JWT path makes (see
 * {@link judgeIntrospection}): the audience, the issuer, `exp` and `nbf`, and the token type. A
 * token bound to a key or certificate (`cnf`) is refused unless the request proves the binding
 * (see {@link IntrospectionBearer.verifyToken}). `request.auth` is the answer, or
 * what `map` makes of it; routes' `scopes` read its `scope`.
 *
 * Answers are cached under a SHA-256 digest of the token, never the token: an acceptance for at
 * most `cacheMaxAge` and never past the token's `exp`, a refusal for `negativeCacheMaxAge`, so a
 * revoked token is refused at the latest `cacheMaxAge` after the answer that accepted it.
 * Requests with the same token while it is being introspected wait for that one call. An
 * endpoint down, slower than `timeout`, or answering anything but 200 and an RFC 7662 JSON object
 * is a `StoreUnavailableError` (503 with `Retry-After`), and nothing is cached for it.
 *
 * Documented as `{ type: 'http', scheme: 'bearer' }` under the name `bearerAuth_introspection`:
 * an opaque token has no format to name.
 *
 * @example
 * const api = protectedResource({
 *   resource: 'https://api.example.com/mcp',
 *   authorizationServers: ['https://login.example.com'],
 * });
 * const bearer = new IntrospectionBearer({
 *   resource: api,
 *   introspectionEndpoint: 'https://login.example.com/oauth2/introspect',
 *   clientId: 'api',
 *   clientSecret: process.env.INTROSPECTION_SECRET,
 * });
 */
export class IntrospectionBearer<TAuth = IntrospectionAnswer> extends AccessTokenBearer<TAuth> {
  constructor(options: IntrospectionBearerOptions<TAuth>) {
    super(introspectionHook(options), {
      ...options,
      name: options.name ?? 'bearerAuth_introspection',
      // An opaque token has no format to name.
      bearerFormat: undefined,
      // The endpoint may be down or slow: the 503 is documented on the routes it protects.
      consultsStore: true,
    });
  }
}

/** A verdict as cached: the accepted answer, or `false` for a refusal. */
type Verdict = IntrospectionAnswer | false;

/**
 * The hook of an {@link IntrospectionBearer}: a cached verdict when there is one (answered
 * synchronously), else one introspection shared by every request with the token meanwhile.
 */
function introspectionHook<TAuth>(options: IntrospectionBearerOptions<TAuth>): TokenCheck<TAuth> {
  const call = introspectionCall(options);
  const expected = expectations(options);
  const maxAge = whole(options.cacheMaxAge, 60_000, 'cacheMaxAge');
  const negativeMaxAge = whole(options.negativeCacheMaxAge, 5000, 'negativeCacheMaxAge');
  const cache = new ExpiringCache<Verdict>(whole(options.cacheSize, 10_000, 'cacheSize'));
  const inFlight = new Map<string, Promise<Verdict>>();
  const map = options.map;

  const ask = (token: string, key: string): Promise<Verdict> => {
    const pending = Promise.resolve(call())
      .then((made) => introspectToken(made, token))
      .then((answer): Verdict => {
        const now = Date.now();
        if (!judgeIntrospection(answer, expected, now)) {
          cache.set(key, false, now + negativeMaxAge, now);
          return false;
        }
        const accepted = deepFreeze(answer);
        const exp = accepted.exp === undefined ? Infinity : accepted.exp * 1000;
        cache.set(key, accepted, Math.min(now + maxAge, exp), now);
        return accepted;
      });
    inFlight.set(key, pending);
    const settled = () => inFlight.delete(key);
    pending.then(settled, settled);
    return pending;
  };

  return (request, token, possession) => {
    // The verdict is the token's, cached; its binding is proved by each request anew.
    const accept = (verdict: Verdict): Awaitable<TAuth | Nothing> => {
      if (verdict === false || !confirms(verdict.cnf, possession)) return undefined;
      return map === undefined ? (verdict as TAuth) : map(verdict, request);
    };
    // The digest keys the cache, so no token stays in memory after its request.
    const key = toBase64url(sha256(utf8(token)));
    const cached = cache.get(key, Date.now());
    if (cached !== undefined) return accept(cached);
    return (inFlight.get(key) ?? ask(token, key)).then(accept);
  };
}

const CLIENT_AUTHENTICATIONS: readonly string[] = ['client_secret_basic', 'client_secret_post'];

/**
 * How each introspection is made: with the endpoint given, at once; else once the authorization
 * server's metadata named it (a `StoreUnavailableError` while it cannot, or names none).
 */
function introspectionCall(
  options: IntrospectionBearerOptions<unknown>,
): () => IntrospectionCall | Promise<IntrospectionCall> {
  const client = introspectionClient(options);
  const timeout = whole(options.timeout, 5000, 'timeout');
  if (timeout === 0) throw new ConfigurationError('IntrospectionBearer timeout must be above 0');
  const server = serverOf(options, timeout);
  if (server === undefined) {
    const call = { endpoint: endpointOf(options.introspectionEndpoint), client, timeout };
    return () => call;
  }
  let call: IntrospectionCall | undefined;
  return async () => {
    if (call !== undefined) return call;
    const { introspection_endpoint: endpoint } = await server.metadata();
    if (endpoint === undefined) {
      throw new StoreUnavailableError(
        `authorization server ${server.issuer} names no introspection_endpoint`,
      );
    }
    call = { endpoint: endpointOf(endpoint), client, timeout };
    return call;
  };
}

/** Where the endpoint comes from: `undefined` when it is given. */
function serverOf(
  options: IntrospectionBearerOptions<unknown>,
  timeout: number,
): AuthorizationServer | undefined {
  const { introspectionEndpoint, authorizationServer: given, resource } = options;
  if (introspectionEndpoint !== undefined) {
    if (given === undefined) return undefined;
    throw new ConfigurationError(
      'IntrospectionBearer takes introspectionEndpoint or authorizationServer, not both',
    );
  }
  if (given instanceof AuthorizationServer) return given;
  const issuers = given === undefined ? (resource?.authorizationServers ?? []) : [given];
  if (issuers.length !== 1) {
    throw new ConfigurationError(
      'IntrospectionBearer needs introspectionEndpoint, or authorizationServer when its resource names other than one',
    );
  }
  return authorizationServer(issuers[0] as string, { timeout });
}

function endpointOf(value: unknown): URL {
  const given = String(value);
  // Errors name the endpoint, and configuration errors are logged: credentials in it never are.
  const parsed = URL.canParse(given) ? new URL(given) : undefined;
  if (parsed !== undefined && (parsed.username !== '' || parsed.password !== '')) {
    throw new ConfigurationError(
      'IntrospectionBearer introspectionEndpoint must have no credentials',
    );
  }
  const endpoint = absoluteUrl(given, 'IntrospectionBearer introspectionEndpoint');
  if (endpoint.hash !== '') {
    throw new ConfigurationError('IntrospectionBearer introspectionEndpoint must have no fragment');
  }
  return endpoint;
}

function introspectionClient(options: IntrospectionBearerOptions<unknown>): IntrospectionClient {
  const { clientId, clientSecret, clientAuthentication = 'client_secret_basic' } = options;
  for (const [name, value] of Object.entries({ clientId, clientSecret })) {
    if (typeof value !== 'string' || value === '') {
      throw new ConfigurationError(`IntrospectionBearer needs ${name}, a non-empty string`);
    }
  }
  if (!CLIENT_AUTHENTICATIONS.includes(clientAuthentication)) {
    throw new ConfigurationError(
      'IntrospectionBearer clientAuthentication must be client_secret_basic or client_secret_post',
    );
  }
  return { id: clientId, secret: clientSecret, authentication: clientAuthentication };
}

function expectations(options: IntrospectionBearerOptions<unknown>): IntrospectionExpectations {
  const { resource, issuer, clockTolerance = 5 } = options;
  if (!(clockTolerance >= 0 && clockTolerance < Infinity)) {
    throw new ConfigurationError(
      'IntrospectionBearer clockTolerance must be a number of seconds, 0 or more',
    );
  }
  const issuers =
    resource !== undefined && issuer === undefined
      ? resource.authorizationServers
      : expected('issuer', issuer);
  if (resource === undefined) {
    const audiences = expected('audience', options.audience);
    return { audience: audiences && { anyOf: audiences }, issuers, clockTolerance };
  }
  const { audience } = options;
  if (audience !== undefined && String(audience) !== resource.resource) {
    throw new ConfigurationError(
      'IntrospectionBearer audience beside a resource must be the resource identifier: it is its tokens’ one audience',
    );
  }
  return { audience: { exactly: resource.resource }, issuers, clockTolerance };
}

/** The `audience` or `issuer` option as a list; `undefined` for `false` (any). */
function expected(name: 'audience' | 'issuer', value: unknown): readonly string[] | undefined {
  const claim = name === 'issuer' ? 'iss' : 'aud';
  return claimValues(
    value,
    `IntrospectionBearer needs ${name} (or a resource): the value(s) an answer's ${claim} must hold, or false to accept any`,
  );
}

function whole(value: number | undefined, fallback: number, name: string): number {
  return wholeNumber(value, fallback, `IntrospectionBearer ${name}`);
}

/**
 * The answer frozen through and through: one cached answer is `request.auth` for many
 * requests, so no handler may change what the next one reads.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
