import { errors, jwtVerify, type JWTPayload, type JWTVerifyOptions } from 'jose';
import type { AuthenticatorOptions } from '../core/authenticator.js';
import { ConfigurationError } from '../core/errors.js';
import type { Awaitable, Nothing } from '../core/outcome.js';
import type { AuthRequest } from '../core/request.js';
import { HttpBearer, type BearerHook } from '../http/http-bearer.js';
import { verificationKeys, type JwtKeySource } from './jwt-keys.js';

/** Turns a verified payload into `request.auth`, or returns nothing to refuse the token. */
export type JwtMap<TAuth> = (
  payload: JWTPayload,
  request: AuthRequest,
) => Awaitable<TAuth | Nothing>;

/** Options of {@link JwtBearer}; `algorithms`, `issuer`, `audience` and one key source are required. */
export type JwtBearerOptions<TAuth = JWTPayload> = JwtBearerSettings<TAuth> &
  (
    | {
        /** The issuer's JSON Web Key Set, e.g. `https://issuer.example/.well-known/jwks.json`. */
        readonly jwksUrl: string | URL;
        readonly keys?: never;
      }
    | {
        /** Keys given locally instead of a JWKS URL: a JWK set, one public key, or an HMAC secret. */
        readonly keys: NonNullable<JwtKeySource['keys']>;
        readonly jwksUrl?: never;
      }
  );

/** The options of {@link JwtBearer} other than where its keys come from. */
export interface JwtBearerSettings<TAuth> extends AuthenticatorOptions {
  /**
   * The algorithms tokens may be signed with, e.g. `['RS256']`: any other, `none` above all, is
   * refused. HS256/384/512 only with a secret as `keys`, never with public keys or a JWKS.
   */
  readonly algorithms: JwtKeySource['algorithms'];
  /** The `iss` a token must carry (one of several); `false` to accept any, deliberately. */
  readonly issuer: string | readonly string[] | false;
  /** The `aud` a token must carry (one of several); `false` to accept any, deliberately. */
  readonly audience: string | readonly string[] | false;
  /** Seconds of clock skew allowed when checking `exp` and `nbf` (default 5). */
  readonly clockTolerance?: number;
  /** Milliseconds one fetch of the JWKS may take (default 5000); beyond it, 503. */
  readonly jwksTimeout?: number;
  /** Milliseconds after a JWKS fetch before an unknown `kid` may fetch it again (default 60000). */
  readonly jwksCooldown?: number;
  /**
   * Makes `request.auth` from the verified payload (and the request); without it, `request.auth`
   * is the payload. Return `undefined`, `null` or `false` to refuse the token (401). Scopes are
   * read from what it returns (`scope`, `scp`): keep them there if routes require scopes.
   */
  readonly map?: JwtMap<TAuth>;
  /** Longest token accepted, in characters (default 4096). */
  readonly maxLength?: number;
  /** Documented description of the scheme. */
  readonly description?: string;
}

/**
 * Bearer tokens that are JWTs signed by an issuer (RFC 7519, RFC 6750): the signature is checked
 * with jose against the issuer's JWKS or keys given locally, then the algorithm, `iss`, `aud`,
 * `exp` (required) and `nbf`. `request.auth` is the verified payload (typed by the type
 * parameter, which nothing checks), or what `map` makes of it. Any failure refuses the token (401,
 * `error="invalid_token"`, no detail); a JWKS that cannot be fetched is a `StoreUnavailableError`
 * (503). Documented as `{ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }`.
 *
 * It is an {@link HttpBearer} whose hook is the JWT's check: the token is read and the check's
 * answer judged as for any Bearer token, and a subclass may extend `authenticate`, whose
 * `super.authenticate(request, token)` resolves with the verified (and mapped) value.
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
 */
export class JwtBearer<TAuth = JWTPayload> extends HttpBearer<TAuth> {
  constructor(options: JwtBearerOptions<TAuth>) {
    super({
      bearerFormat: 'JWT',
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.realm === undefined ? {} : { realm: options.realm }),
      ...(options.maxLength === undefined ? {} : { maxLength: options.maxLength }),
      ...(options.description === undefined ? {} : { description: options.description }),
      // A JWKS that cannot be fetched is a 503; so is a store that `map` reads, when it says so.
      consultsStore: options.consultsStore ?? options.jwksUrl !== undefined,
      authenticate: jwtHook(options),
    });
  }
}

/**
 * The hook of a {@link JwtBearer}: verifies the token with jose, then maps its payload to
 * `request.auth`; a token jose refuses resolves with `undefined`.
 */
function jwtHook<TAuth>(options: JwtBearerOptions<TAuth>): BearerHook<TAuth> {
  const keys = verificationKeys(options, {
    timeout: milliseconds(options.jwksTimeout, 5000, 'jwksTimeout'),
    cooldown: milliseconds(options.jwksCooldown, 60_000, 'jwksCooldown'),
  });
  const clockTolerance = options.clockTolerance ?? 5;
  if (!(clockTolerance >= 0 && clockTolerance < Infinity)) {
    throw new ConfigurationError('JwtBearer clockTolerance must be a number of seconds, 0 or more');
  }
  const verifyOptions: JWTVerifyOptions = {
    algorithms: keys.algorithms,
    clockTolerance,
    requiredClaims: ['exp'],
    ...expected('issuer', options.issuer),
    ...expected('audience', options.audience),
  };
  const map = options.map;
  return async (request, token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys.key, verifyOptions));
    } catch (error) {
      // jose's own errors say what is wrong with the token; a TypeError says the token's
      // algorithm does not fit the key given. Anything else (a JWKS that cannot be fetched, as
      // StoreUnavailableError) is not the token's fault, and goes on to the error handlers.
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
    return map === undefined ? (payload as TAuth) : map(payload, request);
  };
}

function milliseconds(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ConfigurationError(
      `JwtBearer ${name} must be a whole number of milliseconds, 0 or more`,
    );
  }
  return value;
}

/** The `issuer` or `audience` option as jose takes it; `false` checks nothing. */
function expected(
  name: 'issuer' | 'audience',
  value: unknown,
): { issuer?: string[]; audience?: string[] } {
  if (value === false) return {};
  const values: unknown[] = Array.isArray(value) ? value : [value];
  if (values.length === 0 || values.some((one) => typeof one !== 'string' || one === '')) {
    const claim = name === 'issuer' ? 'iss' : 'aud';
    throw new ConfigurationError(
      `JwtBearer needs ${name}: the value(s) a token's ${claim} must hold, or false to accept any`,
    );
  }
  return { [name]: values as string[] };
}
