import { errors, jwtVerify, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { claimValues, wholeNumber } from '../core/configuration-checks.js';
import { ConfigurationError } from '../core/errors.js';
import type { Awaitable, Nothing } from '../core/outcome.js';
import type { AuthRequest } from '../core/request.js';
import { AccessTokenBearer, type AccessTokenBearerOptions } from '../oauth/access-token-bearer.js';
import type { TokenCheck } from '../oauth/certificate-possession.js';
import { confirms } from '../oauth/confirmation.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';
import { accessTokenChecks, isAccessTokenForOne, typCheck } from './access-token-profile.js';
import { verificationKeys, type JwtKeySource } from './jwt-keys.js';
import type { RemoteJwksTiming } from './remote-jwks.js';
import { trustedIssuers, type JwtIssuer, type VerificationFor } from './trusted-issuers.js';

/** Turns a verified payload into `request.auth`, or returns nothing to refuse the token. */
export type JwtMap<TAuth> = (
  payload: JWTPayload,
  request: AuthRequest,
) => Awaitable<TAuth | Nothing>;

/**
 * Options of {@link JwtBearer}: `algorithms`, the issuer(s) trusted with their keys, and the
 * audience, or the protected `resource` whose access tokens it accepts.
 */
export type JwtBearerOptions<TAuth = JWTPayload> = JwtBearerSettings<TAuth> &
  JwtIssuerOptions &
  JwtAudienceOptions;

/** Which issuers a {@link JwtBearer} trusts, and where their keys come from. */
export type JwtIssuerOptions =
  | {
      /** The `iss` a token must carry (one of several); `false` to accept any, deliberately. */
      readonly issuer: string | readonly string[] | false;
      /** The issuer's JSON Web Key Set, e.g. `https://issuer.example/.well-known/jwks.json`. */
      readonly jwksUrl: string | URL;
      readonly keys?: never;
      readonly issuers?: never;
    }
  | {
      readonly issuer: string | readonly string[] | false;
      /** Keys given locally instead of a JWKS URL: a JWK set, one public key, or an HMAC secret. */
      readonly keys: NonNullable<JwtKeySource['keys']>;
      readonly jwksUrl?: never;
      readonly issuers?: never;
    }
  | {
      /** Several trusted issuers, each with its own keys: a token's `iss` picks its issuer. */
      readonly issuers: readonly JwtIssuer[];
      readonly issuer?: never;
      readonly jwksUrl?: never;
      readonly keys?: never;
    }
  | {
      /** None of the above beside a `resource`: its authorization servers, keys discovered. */
      readonly resource: ProtectedResource;
      readonly issuer?: never;
      readonly jwksUrl?: never;
      readonly keys?: never;
      readonly issuers?: never;
    };

/** Which audience the tokens of a {@link JwtBearer} must be for. */
export type JwtAudienceOptions =
  | {
      /** The `aud` a token must carry (one of several); `false` to accept any, deliberately. */
      readonly audience: string | readonly string[] | false;
      readonly resource?: undefined;
    }
  | {
      /**
       * The OAuth protected resource whose access tokens it accepts (RFC 9068 §4): `aud` must be
       * its identifier and nothing else, `typ` `at+jwt`, `iss`, `sub` and `client_id` present.
       * Its challenges point to the resource's metadata; without `issuer`, `issuers` or keys, its authorization servers are trusted.
       */
      readonly resource: ProtectedResource;
      /** Left out, or the resource's identifier itself. */
      readonly audience?: string | readonly [string];
    };

/** The options of {@link JwtBearer} other than the issuers, their keys and the audience. */
export interface JwtBearerSettings<TAuth> extends AccessTokenBearerOptions {
  /**
   * The algorithms tokens may be signed with, e.g. `['RS256']`: any other, `none` above all, is
   * refused. HS256/384/512 only with a secret as `keys`, never with public keys or a JWKS.
   */
  readonly algorithms: JwtKeySource['algorithms'];
  /**
   * The JOSE header `typ` a token must carry, compared as RFC 7515 §4.1.9 says (`at+jwt` matches
   * `application/at+jwt`, any case). Default `at+jwt` beside a `resource` (RFC 9068 §4), none
   * otherwise; `false` accepts any `typ`, deliberately (an issuer that does not type its access
   * tokens: then only `aud` tells them from its ID tokens).
   */
  readonly typ?: string | false;
  /** Seconds of clock skew allowed when checking `exp` and `nbf` (default 5). */
  readonly clockTolerance?: number;
  /**
   * Milliseconds one fetch of a JWKS, or the discovery of an issuer's metadata, may take (default
   * 5000); beyond it, 503.
   */
  readonly jwksTimeout?: number;
  /** Milliseconds after a JWKS fetch before an unknown `kid` may fetch it again (default 60000). */
  readonly jwksCooldown?: number;
  /**
   * Makes `request.auth` from the verified payload (and the request); without it, `request.auth`
   * is the payload. Return `undefined`, `null` or `false` to refuse the token (401). Scopes are
   * read from what it returns (`scope`, `scp`): keep them there if routes require scopes.
   */
  readonly map?: JwtMap<TAuth>;
}

/**
 * Bearer tokens that are JWTs signed by an issuer (RFC 7519, RFC 6750): the signature is checked
 * with jose against the issuer's JWKS or keys given locally, then the algorithm, `iss`, `aud`,
 * `exp` (required) and `nbf`. `request.auth` is the verified payload (typed by the type
 * parameter, which nothing checks), or what `map` makes of it. Any failure refuses the token (401,
 * `error="invalid_token"`, no detail); a JWKS that cannot be fetched is a `StoreUnavailableError`
 * (503). Documented as `{ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }`.
 *
 * Given the OAuth protected `resource` it serves, it accepts that resource's access tokens only
 * (RFC 9068 §4): `aud` is the resource's identifier and nothing else, `typ` is `at+jwt`, `iss`,
 * `sub` and `client_id` are present. Its challenges then point to the resource's metadata (RFC
 * 9728 §5.1). With or without a resource, a token bound to a key or certificate (`cnf`) is
 * refused unless the request proves the binding (see {@link JwtBearer.verifyToken}): a
 * DPoP-bound token sent as a plain Bearer token is never accepted.
 *
 * Several issuers, each with its own keys (tenants, or a migration between two servers), are
 * given as `issuers`: a token's `iss` picks its issuer's keys, and a token naming none is
 * refused without a fetch. An issuer given neither `jwksUrl` nor `keys` is found by discovery
 * (RFC 8414, else OpenID Connect Discovery) when a token first names it; beside a `resource`,
 * leaving out the issuers altogether trusts the resource's authorization servers so.
 *
 * It is an {@link AccessTokenBearer}, an `HttpBearer` whose hook is the JWT's check: the token
 * is read and the check's answer judged as for any Bearer token, and a subclass may extend
 * `authenticate`, whose `super.authenticate(request, token)` resolves with the verified (and
 * mapped) value.
 *
 * A JWKS is fetched when a token first needs it, kept for ten minutes, and fetched again early
 * when a token names a `kid` it lacks, at most once per `jwksCooldown`. A token without `kid`
 * that several keys of the set could verify is refused: issuers that publish several keys name
 * them.
 *
 * @example
 * const jwt = new JwtBearer({
 *   jwksUrl: 'https://issuer.example/.well-known/jwks.json',
 *   issuer: 'https://issuer.example/',
 *   audience: 'https://api.example/',
 *   algorithms: ['RS256'],
 * });
 * // The access tokens of a protected resource, from its authorization servers' keys:
 * const mcp = new JwtBearer({ resource: api, algorithms: ['RS256'] });
 */
export class JwtBearer<TAuth = JWTPayload> extends AccessTokenBearer<TAuth> {
  constructor(options: JwtBearerOptions<TAuth>) {
    super(jwtHook(options), {
      ...options,
      bearerFormat: 'JWT',
      // A JWKS that cannot be fetched is a 503; so is a store that `map` reads, when it says so.
      consultsStore: options.consultsStore ?? fetchesKeys(options),
    });
  }
}

/**
 * The hook of a {@link JwtBearer}: verifies the token with jose, then maps its payload to
 * `request.auth`; a token jose refuses resolves with `undefined`.
 */
function jwtHook<TAuth>(options: JwtBearerOptions<TAuth>): TokenCheck<TAuth> {
  const timing = {
    timeout: milliseconds(options.jwksTimeout, 5000, 'jwksTimeout'),
    cooldown: milliseconds(options.jwksCooldown, 60_000, 'jwksCooldown'),
  };
  const clockTolerance = options.clockTolerance ?? 5;
  if (!(clockTolerance >= 0 && clockTolerance < Infinity)) {
    throw new ConfigurationError('JwtBearer clockTolerance must be a number of seconds, 0 or more');
  }
  const { resource } = options;
  const checks: JWTVerifyOptions = {
    clockTolerance,
    ...(resource === undefined
      ? {
          requiredClaims: ['exp'],
          ...expected('audience', options.audience),
          ...typCheck(options.typ),
        }
      : accessTokenChecks({ ...options, resource })),
  };
  const verificationFor = verifications(options, timing, checks);
  const strict = resource !== undefined;
  const map = options.map;
  return async (request, token, possession) => {
    const verification = verificationFor(token);
    if (verification === undefined) return undefined;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, verification.key, verification.options));
    } catch (error) {
      // jose's own errors say what is wrong with the token; a TypeError says the token's
      // algorithm does not fit the key given. Anything else (a JWKS that cannot be fetched, as
      // StoreUnavailableError) is not the token's fault, and goes on to the error handlers.
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
    if (strict && !isAccessTokenForOne(payload)) return undefined;
    if (!confirms(payload['cnf'], possession)) return undefined;
    return map === undefined ? (payload as TAuth) : map(payload, request);
  };
}

/** How each token is verified: by the one issuer's keys, or by those its `iss` picks. */
function verifications(
  options: JwtBearerOptions<unknown>,
  timing: RemoteJwksTiming,
  checks: JWTVerifyOptions,
): VerificationFor {
  const { resource, issuers, algorithms } = options;
  // What TypeScript refuses, for callers without it: one way of naming the issuers.
  const single: readonly unknown[] = [options.issuer, options.jwksUrl, options.keys];
  if (issuers !== undefined) {
    if (single.some((option) => option !== undefined)) {
      throw new ConfigurationError(
        'JwtBearer takes issuers, or issuer with jwksUrl or keys: not both',
      );
    }
    return trustedIssuers(issuers, algorithms, timing, checks);
  }
  if (resource !== undefined && single.every((option) => option === undefined)) {
    const discovered = resource.authorizationServers.map((issuer) => ({ issuer }));
    return trustedIssuers(discovered, algorithms, timing, checks);
  }
  const keys = verificationKeys(options, timing);
  const only = {
    key: keys.key,
    options: { ...checks, algorithms: keys.algorithms, ...expected('issuer', options.issuer) },
  };
  return () => only;
}

/** Whether the keys of some issuer are fetched: from a JWKS URL, or discovered. */
function fetchesKeys(options: JwtBearerOptions<unknown>): boolean {
  if (options.issuers !== undefined) {
    return options.issuers.some((issuer) => issuer.keys === undefined);
  }
  // One issuer: from its JWKS URL, or, beside a resource, its authorization servers discovered.
  return options.keys === undefined;
}

function milliseconds(value: number | undefined, fallback: number, name: string): number {
  return wholeNumber(value, fallback, `JwtBearer ${name}`, { unit: 'milliseconds' });
}

/** The `issuer` or `audience` option as jose takes it; `false` checks nothing. */
function expected(
  name: 'issuer' | 'audience',
  value: unknown,
): { issuer?: string[]; audience?: string[] } {
  const claim = name === 'issuer' ? 'iss' : 'aud';
  const values = claimValues(
    value,
    `JwtBearer needs ${name}: the value(s) a token's ${claim} must hold, or false to accept any`,
  );
  return values === undefined ? {} : { [name]: [...values] };
}
