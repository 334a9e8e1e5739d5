import { createHmac, hash, randomBytes, type KeyObject } from 'node:crypto';

/** Every API key starts with this, so a leaked one is recognisable (and greppable) at a glance. */
export const API_KEY_PREFIX = 'vk_';

/** How many characters of an API key are kept in clear to recognise it in a listing. */
export const API_KEY_PREFIX_LENGTH = 11;

/**
 * A random secret from the CSPRNG, base64url without padding: a valid RFC 6750 `b64token` and
 * cookie value. Used for bearer tokens and session ids.
 *
 * @example newSecret() // 43 characters, 256 bits
 */
export function newSecret(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 16) {
    throw new RangeError('a secret needs at least 16 bytes (128 bits)');
  }
  return randomBytes(bytes).toString('base64url');
}

/**
 * The SHA-256 digest of a secret, base64url: what the store keeps instead of the secret. A plain
 * hash suffices (no salt, no stretching) because the secrets are 256 random bits, not passwords.
 */
export function digest(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

/**
 * A keyed hash (HMAC-SHA256 under `key`, base64url) of a username and password: what a login
 * verified once is remembered under, never the password itself. Without the key, nobody can
 * compute it, so nothing about the password can be guessed from it, or from how it compares.
 * A `KeyObject` made once spares preparing the key at every call.
 *
 * @example store.recallLogin(loginDigest(key, 'alice', password))
 */
export function loginDigest(key: KeyObject | string, username: string, password: string): string {
  // The username's length in bytes first: no other username and password give the same input.
  return createHmac('sha256', key)
    .update(`${Buffer.byteLength(username)}:${username}${password}`)
    .digest('base64url');
}

/** A new API key and the prefix that identifies it in listings. */
export interface NewApiKey {
  /** The whole key, shown once and never stored. */
  readonly key: string;
  /** `vk_` and the key's first 8 characters (48 of its 256 bits). */
  readonly prefix: string;
}

/**
 * A new API key: `vk_` followed by 256 random bits in base64url.
 *
 * @example const { key, prefix } = newApiKey(); // store digest(key) and prefix, show key once
 */
export function newApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + newSecret(32);
  return { key, prefix: key.slice(0, API_KEY_PREFIX_LENGTH) };
}
