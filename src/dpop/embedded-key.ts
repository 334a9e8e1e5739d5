import { calculateJwkThumbprint, EmbeddedJWK, type CryptoKey, type JWK } from 'jose';
import { ExpiringCache } from '../internal/expiring-cache.js';
import { nodeCrypto } from '../internal/node-crypto.js';
import { signatureCheck, type SignatureCheck } from './proof-signature.js';

/** The key a DPoP proof carries in its header, imported, and its RFC 7638 thumbprint. */
export interface EmbeddedKey {
  readonly key: CryptoKey;
  /** The base64url SHA-256 thumbprint, as a token's `cnf.jkt` names the key. */
  readonly jkt: string;
  /** The synchronous check of its signatures, where the runtime has node:crypto. */
  readonly check: SignatureCheck | undefined;
}

// A client signs every proof with one key: importing it and hashing it cost more than checking
// the signature, so the result is kept, for the algorithm and the JWK exactly as sent. Shared by
// every DPoPBearer, as it depends on nothing else.
const kept = new ExpiringCache<EmbeddedKey>(1000);
const KEPT_FOR = 10 * 60_000;

/**
 * The public key of a proof's `jwk` header, for `alg`, as jose's `EmbeddedJWK` imports it (a
 * public key of the algorithm's type, its `use` `sig` and its `alg` the header's when present;
 * RSA of 2048 bits or more), with its thumbprint. The 1000 last used are kept ten minutes.
 * Rejects for a JWK that is not such a key.
 */
export async function embeddedKey(alg: string, jwk: JWK, now: number): Promise<EmbeddedKey> {
  const id = `${alg} ${JSON.stringify(jwk)}`;
  const known = kept.get(id, now);
  if (known !== undefined) return known;
  const key = await EmbeddedJWK({ alg, jwk });
  // jose checks the length when it verifies; the synchronous check must not skip it.
  const { modulusLength } = key.algorithm as { modulusLength?: number };
  if (modulusLength !== undefined && modulusLength < 2048) {
    throw new TypeError(`${alg} requires a key of 2048 bits or more`);
  }
  const made = {
    key,
    jkt: await calculateJwkThumbprint(jwk),
    check: signatureCheck(alg, key, nodeCrypto),
  };
  kept.set(id, made, now + KEPT_FOR, now);
  return made;
}
