import {
  createLocalJWKSet,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWSAlgorithm,
  type JWTVerifyGetKey,
  type KeyObject,
} from 'jose';
import { ConfigurationError } from '../core/errors.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import { discoveredJwks, remoteJwks, type RemoteJwksTiming } from './remote-jwks.js';

/**
 * Keys given locally: a JSON Web Key Set (`{ keys: [...] }`, public keys chosen by `kid` and
 * algorithm), or one key: a public `CryptoKey`, Node `KeyObject` or JWK, or an HMAC secret (bytes,
 * a secret `CryptoKey`, an `oct` JWK) for HS256/384/512.
 */
export type JwtKeys = JSONWebKeySet | JWK | CryptoKey | KeyObject | Uint8Array;

/**
 * Where the keys come from: exactly one of a JWKS URL, local keys, and an authorization server
 * whose metadata names its JWKS (`jwks_uri`).
 */
export interface JwtKeySource {
  readonly jwksUrl?: string | URL | undefined;
  readonly keys?: JwtKeys | undefined;
  readonly discover?: AuthorizationServer | undefined;
  readonly algorithms: readonly JWSAlgorithm[];
}

/** What `jwtVerify` is given: the key (or how to find it) and the algorithms it may accept. */
export interface VerificationKeys {
  readonly key: JWTVerifyGetKey | CryptoKey | KeyObject | JWK | Uint8Array;
  readonly algorithms: JWSAlgorithm[];
}

/** The JWS algorithms with a public key, as jose knows them. */
const PUBLIC_KEY_ALGORITHMS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
]);
/** The HMAC algorithms, with the shortest secret RFC 7518 §3.2 allows each (its hash's size). */
const SECRET_BYTES: ReadonlyMap<string, number> = new Map([
  ['HS256', 32],
  ['HS384', 48],
  ['HS512', 64],
]);

/**
 * Checks where the keys come from against the algorithms allowed, and makes what `jwtVerify` is
 * given. Throws a `ConfigurationError` unless exactly one source is given, the
 * algorithms are a non-empty list of algorithms jose verifies, and they fit the keys: HMAC
 * algorithms with a secret only, never with a public key or key set (the algorithm-confusion
 * attack signs with the public key as an HMAC secret), and a secret long enough for each.
 */
export function verificationKeys(source: JwtKeySource, timing: RemoteJwksTiming): VerificationKeys {
  const { jwksUrl, keys, discover } = source;
  if ([jwksUrl, keys, discover].filter((one) => one !== undefined).length !== 1) {
    throw new ConfigurationError('JwtBearer takes exactly one of jwksUrl and keys');
  }
  const algorithms = allowedAlgorithms(source.algorithms);
  if (discover !== undefined) {
    requirePublicKeyAlgorithms(algorithms, 'a JWKS discovered');
    return { key: discoveredJwks(discover, timing), algorithms };
  }
  if (keys === undefined) {
    requirePublicKeyAlgorithms(algorithms, 'a JWKS URL');
    return { key: remoteJwks(httpUrl(jwksUrl as string | URL), timing), algorithms };
  }
  if (isKeySet(keys)) {
    requirePublicKeyAlgorithms(algorithms, 'a JWK set');
    return { key: localJwks(keys), algorithms };
  }
  const kind = keyKind(keys);
  if (kind === 'private') {
    throw new ConfigurationError('JwtBearer keys must be a public key, not a private one');
  }
  if (kind === 'public') {
    requirePublicKeyAlgorithms(algorithms, 'a public key');
  } else {
    requireSecretAlgorithms(algorithms, keys);
  }
  return { key: keys, algorithms };
}

/** A copy of the allow-list, once every entry is known to be a JWS signature algorithm. */
function allowedAlgorithms(algorithms: unknown): JWSAlgorithm[] {
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new ConfigurationError(
      "JwtBearer needs algorithms, the list of those its issuer signs with (e.g. ['RS256'])",
    );
  }
  const allowed: string[] = [];
  for (const algorithm of algorithms as unknown[]) {
    if (
      typeof algorithm !== 'string' ||
      !(PUBLIC_KEY_ALGORITHMS.has(algorithm) || SECRET_BYTES.has(algorithm))
    ) {
      // `none` included: a token without a signature proves nothing.
      throw new ConfigurationError(
        `JwtBearer algorithms: ${JSON.stringify(algorithm)} is not a JWS signature algorithm`,
      );
    }
    allowed.push(algorithm);
  }
  return allowed;
}

function requirePublicKeyAlgorithms(algorithms: readonly string[], keys: string): void {
  const secret = algorithms.find((algorithm) => SECRET_BYTES.has(algorithm));
  if (secret !== undefined) {
    throw new ConfigurationError(
      `JwtBearer algorithms: ${secret} takes a secret, never ${keys}: anyone holding the public key could sign`,
    );
  }
}

function requireSecretAlgorithms(algorithms: readonly string[], secret: JwtKeys): void {
  for (const algorithm of algorithms) {
    const bytes = SECRET_BYTES.get(algorithm);
    if (bytes === undefined) {
      throw new ConfigurationError(
        `JwtBearer algorithms: ${algorithm} takes a public key, but keys is a secret`,
      );
    }
    if (secret instanceof Uint8Array && secret.byteLength < bytes) {
      throw new ConfigurationError(
        `JwtBearer keys: a secret for ${algorithm} needs at least ${String(bytes)} bytes (RFC 7518 §3.2)`,
      );
    }
  }
}

function httpUrl(value: string | URL): URL {
  const url = URL.parse(String(value));
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ConfigurationError(
      `JwtBearer jwksUrl ${JSON.stringify(String(value))} is not an http(s) URL`,
    );
  }
  return url;
}

function isKeySet(keys: unknown): keys is JSONWebKeySet {
  // Bytes have a keys() method too.
  return typeof keys === 'object' && keys !== null && !ArrayBuffer.isView(keys) && 'keys' in keys;
}

/** The set's resolver, refusing what a set of verification keys must not hold. */
function localJwks(set: JSONWebKeySet): JWTVerifyGetKey {
  if (!Array.isArray(set.keys)) {
    throw new ConfigurationError('JwtBearer keys: a JWK set needs a keys array');
  }
  for (const jwk of set.keys) {
    const kind = keyKind(jwk);
    if (kind !== 'public') {
      throw new ConfigurationError(
        `JwtBearer keys: a JWK set holds public keys only, not a ${kind} key${kind === 'secret' ? ' (give a secret as keys itself)' : ''}`,
      );
    }
  }
  try {
    return createLocalJWKSet(set);
  } catch (cause) {
    throw new ConfigurationError('JwtBearer keys: not a valid JWK set', { cause });
  }
}

/** Whether a single key is public, private or a secret; throws when it is none of the forms. */
function keyKind(key: unknown): 'public' | 'private' | 'secret' {
  if (key instanceof Uint8Array) return 'secret';
  if (typeof key === 'object' && key !== null) {
    if ('kty' in key && typeof key.kty === 'string') {
      if (key.kty === 'oct') return 'secret';
      return 'd' in key ? 'private' : 'public';
    }
    // A CryptoKey or a Node KeyObject: both say which they are.
    if (
      'type' in key &&
      (key.type === 'public' || key.type === 'private' || key.type === 'secret')
    ) {
      return key.type;
    }
  }
  throw new ConfigurationError(
    'JwtBearer keys must be a JWK set, a JWK, a CryptoKey, a KeyObject or the bytes of a secret',
  );
}
