import type { JWTPayload, JWTVerifyOptions } from 'jose';
import { ConfigurationError } from '../core/errors.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';

/** The options of a JwtBearer that its protected resource constrains. */
export interface ProfileOptions {
  readonly resource: ProtectedResource;
  readonly audience?: string | readonly string[] | false | undefined;
  readonly issuer?: string | readonly string[] | false | undefined;
  readonly typ?: string | false | undefined;
}

/**
 * jose's checks of a protected resource's access tokens (RFC 9068 §4): `exp`, the resource's
 * identifier as `aud`, and `typ` `at+jwt` unless `typ` says otherwise. Throws a
 * `ConfigurationError` for an audience other than the resource, or an issuer left unchecked.
 */
export function accessTokenChecks(options: ProfileOptions): JWTVerifyOptions {
  const { resource, audience, typ } = options;
  const audiences: readonly unknown[] = Array.isArray(audience) ? audience : [audience];
  if (audience !== undefined && !(audiences.length === 1 && audiences[0] === resource.resource)) {
    throw new ConfigurationError(
      `JwtBearer audience must be left out beside a resource, or be its identifier ${JSON.stringify(resource.resource)}: its tokens carry that one audience`,
    );
  }
  if (options.issuer === false) {
    throw new ConfigurationError(
      "JwtBearer issuer cannot be false beside a resource: a token's iss must name a trusted authorization server (RFC 9068 §4)",
    );
  }
  return {
    requiredClaims: ['exp'],
    audience: resource.resource,
    ...typCheck(typ, 'at+jwt'),
  };
}

/** The `typ` option as jose takes it: `fallback` when left out, no check when `false`. */
export function typCheck(typ: unknown, fallback?: string): { typ?: string } {
  if (typ === false) return {};
  if (typ === undefined) return fallback === undefined ? {} : { typ: fallback };
  if (typeof typ !== 'string' || typ === '') {
    throw new ConfigurationError('JwtBearer typ must be a media type, e.g. at+jwt, or false');
  }
  return { typ };
}

/**
 * What jose does not check of a protected resource's token, once it has verified one: `aud`
 * names the resource alone (a token minted for it and another could be replayed by the other);
 * and the user and client it speaks for, `sub` and `client_id` (RFC 9068 §2.2), are non-empty strings, so that
 * `request.auth` can be read for them. `iat` and `jti`, also required by the profile, serve no
 * check a resource makes of a Bearer token (jose checks `iat` is a number when present). A
 * binding (`cnf`) is checked apart, against what the request proved.
 */
export function isAccessTokenForOne(payload: JWTPayload): boolean {
  const { aud, sub } = payload;
  const clientId = payload['client_id'];
  return (
    (typeof aud === 'string' || (Array.isArray(aud) && aud.length === 1)) &&
    typeof sub === 'string' &&
    sub !== '' &&
    typeof clientId === 'string' &&
    clientId !== ''
  );
}
