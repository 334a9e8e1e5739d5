import { calculateJwkThumbprint, EmbeddedJWK, type CryptoKey, type JWK } from 'jose';
import { ExpiringCache } from '../internal/expiring-cache.js';

/** The key a DPoP proof carries in its header, imported, and its RFC 7638 thumbprint. */
export interface EmbeddedKey {
  readonly key: CryptoKey;
  /** The base64url SHA-256 thumbprint, as a token's `cnf.jkt` names the key. */
  readonly jkt: string;
}

// A client signs every proof with one key: importing it and hashing it cost more than checking
// the signature, so the result is kept, for the algorithm and the JWK exactly as sent. Shared by
// every DPoPBearer, as it depends on nothing else.
const kept = new ExpiringCache<EmbeddedKey>(1000);
const KEPT_FOR = 10 * 60_000;

/**
 * The public key of a proof's `jwk` header, for `alg`, as jose's `EmbeddedJWK` imports it (a
 * public key of the algorithm's type, its `use` `sig` and its `alg` the header's when present),
 * with its thumbprint. The 1000 last used are kept ten minutes. Rejects for a JWK that is not
 * such a key.
 */
export async function embeddedKey(alg: string, jwk: JWK, now: number): Promise<EmbeddedKey> {
  const id = `${alg} ${JSON.stringify(jwk)}`;
  const known = kept.get(id, now);
  if (known !== undefined) return known;
  const key = await EmbeddedJWK({ alg, jwk });
  const made = { key, jkt: await calculateJwkThumbprint(jwk) };
  kept.set(id, made, now + KEPT_FOR, now);
  return made;
}
