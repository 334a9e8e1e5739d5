import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { StoreUnavailableError } from '../core/errors.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';

/** How {@link remoteJwks} fetches: both in milliseconds. */
export interface RemoteJwksTiming {
  /** How long one fetch of the key set may take before it counts as failed. */
  readonly timeout: number;
  /** How long after a fetch an unknown `kid` must wait before it may cause another. */
  readonly cooldown: number;
}

/**
 * The keys of a JSON Web Key Set served at `url`, fetched with jose's `createRemoteJWKSet`:
 * cached, fetched again when a token names a `kid` the set lacks (at most once per cooldown).
 *
 * Only a key that is not in the set, or not alone in it, is the token's fault (jose's
 * `JWKSNoMatchingKey`, `JWKSMultipleMatchingKeys`), so the token is refused. Any other failure to
 * get a key (the server down, slow, answering something other than 200 and a key set, a key in
 * the set that cannot be imported) is the key set's, and becomes a `StoreUnavailableError` (503):
 * refusing would tell a client with a good token to sign in again.
 */
export function remoteJwks(url: URL, timing: RemoteJwksTiming): JWTVerifyGetKey {
  const jwks = createRemoteJWKSet(url, {
    timeoutDuration: timing.timeout,
    cooldownDuration: timing.cooldown,
  });
  return async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (error) {
      if (
        error instanceof errors.JWKSNoMatchingKey ||
        error instanceof errors.JWKSMultipleMatchingKeys
      ) {
        throw error;
      }
      throw new StoreUnavailableError(`JWKS ${url.href} could not be used`, { cause: error });
    }
  };
}

/**
 * The keys of the JWKS an authorization server's metadata names (`jwks_uri`), as
 * {@link remoteJwks} gets them once its metadata is discovered. A server whose metadata cannot be
 * had, or names no `jwks_uri`, is a `StoreUnavailableError` (503).
 */
export function discoveredJwks(
  server: AuthorizationServer,
  timing: RemoteJwksTiming,
): JWTVerifyGetKey {
  let jwks: JWTVerifyGetKey | undefined;
  return async (header, token) => {
    if (jwks === undefined) {
      const { jwks_uri: url } = await server.metadata();
      if (url === undefined) {
        throw new StoreUnavailableError(`authorization server ${server.issuer} names no jwks_uri`);
      }
      jwks ??= remoteJwks(new URL(url), timing);
    }
    return jwks(header, token);
  };
}
