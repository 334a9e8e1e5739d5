import { decodeJwt, type JWSAlgorithm, type JWTVerifyOptions } from 'jose';
import { ConfigurationError } from '../core/errors.js';
import { authorizationServer } from '../oauth/authorization-server.js';
import { verificationKeys, type JwtKeys, type VerificationKeys } from './jwt-keys.js';
import type { RemoteJwksTiming } from './remote-jwks.js';

/**
 * One issuer a {@link JwtBearer} trusts, with its own keys: from a JWKS URL, given locally, or,
 * with neither, from the `jwks_uri` of its RFC 8414 metadata (the issuer must then be an `https`
 * URL, discovered when a token first names it).
 */
export type JwtIssuer = {
  /** The `iss` its tokens carry, exactly. */
  readonly issuer: string;
  /** The algorithms its tokens may be signed with, when not the JwtBearer's `algorithms`. */
  readonly algorithms?: readonly JWSAlgorithm[];
} & (
  | { readonly jwksUrl: string | URL; readonly keys?: never }
  | { readonly keys: JwtKeys; readonly jwksUrl?: never }
  | { readonly jwksUrl?: never; readonly keys?: never }
);

/** How one token is verified: its issuer's key (or how to find it) and jose's checks. */
export interface Verification {
  readonly key: VerificationKeys['key'];
  readonly options: JWTVerifyOptions;
}

/** The verification for a token, or `undefined` to refuse it unheard (an issuer not trusted). */
export type VerificationFor = (token: string) => Verification | undefined;

/**
 * The verifications of several trusted issuers, each with its keys and its `iss` to check, on
 * top of `checks`; a token's `iss` (read before its signature is checked, only to pick) chooses.
 * A token naming no trusted issuer is refused without fetching anything.
 */
export function trustedIssuers(
  issuers: readonly JwtIssuer[],
  algorithms: readonly JWSAlgorithm[],
  timing: RemoteJwksTiming,
  checks: JWTVerifyOptions,
): VerificationFor {
  if (!Array.isArray(issuers) || issuers.length === 0) {
    throw new ConfigurationError('JwtBearer issuers must list at least one issuer');
  }
  const byIssuer = new Map<string, Verification>();
  issuers.forEach((entry: JwtIssuer, index) => {
    const { issuer } = entry;
    // Not what the type allows, but what a caller without TypeScript may give.
    const { jwksUrl, keys }: { jwksUrl?: string | URL; keys?: JwtKeys } = entry;
    const name = `JwtBearer issuers[${String(index)}]`;
    if (typeof issuer !== 'string' || issuer === '' || byIssuer.has(issuer)) {
      throw new ConfigurationError(`${name}: issuer must be a string, given once`);
    }
    if (jwksUrl !== undefined && keys !== undefined) {
      throw new ConfigurationError(`${name}: give jwksUrl or keys, not both`);
    }
    const found = verificationKeys(
      {
        jwksUrl,
        keys,
        discover:
          jwksUrl === undefined && keys === undefined
            ? authorizationServer(issuer, { timeout: timing.timeout })
            : undefined,
        algorithms: entry.algorithms ?? algorithms,
      },
      timing,
    );
    byIssuer.set(issuer, {
      key: found.key,
      options: { ...checks, algorithms: found.algorithms, issuer },
    });
  });
  if (byIssuer.size === 1) {
    const [only] = byIssuer.values();
    return () => only;
  }
  return (token) => {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      return undefined;
    }
    return typeof issuer === 'string' ? byIssuer.get(issuer) : undefined;
  };
}
