import { calculateJwkThumbprint, EmbeddedJWK, type CryptoKey, type JWK } from 'jose';
import { ExpiringCache } from '../internal/expiring-cache.js';
import { nodeCrypto } from '../internal/node-crypto.js';
import { signatureCheck, type SignatureCheck } from './proof-signature.js';

/** What a proof's protected header names: its algorithm and its public key. */
export interface ProofHeader {
  readonly alg: string;
  readonly jwk: JWK;
}

/** The key a DPoP proof carries in its header, imported, and its RFC 7638 thumbprint. */
export interface EmbeddedKey extends ProofHeader {
  readonly key: CryptoKey;
  /** The base64url SHA-256 thumbprint, as a token's `cnf.jkt` names the key. */
  readonly jkt: string;
  /** The synchronous check of its signatures, where the runtime has node:crypto. */
  readonly check: SignatureCheck | undefined;
}

// A client signs every proof under one header: decoding it, importing its key and hashing that
// cost more than checking the signature, so the result is kept, for the header's text exactly as
// sent (which alone decides its algorithm and key). Shared by every DPoPBearer, as it depends on
// nothing else.
const kept = new ExpiringCache<EmbeddedKey>(1000);
const KEPT_FOR = 10 * 60_000;

/**
 * The key imported from the protected header `segment` (its base64url text, as the proof has it)
 * within the last ten minutes, if it is among the 1000 last used.
 */
export function knownKey(segment: string, now: number): EmbeddedKey | undefined {
  return kept.get(segment, now);
}

/**
 * The public key of a proof's `jwk` header, for `alg`, as jose's `EmbeddedJWK` imports it (a
 * public key of the algorithm's type, its `use` `sig` and its `alg` the header's when present;
 * RSA of 2048 bits or more), with its thumbprint; kept ten minutes for {@link knownKey} under
 * `segment`, the protected header it was read from. Rejects for a JWK that is not such a key.
 */
export async function embeddedKey(
  segment: string,
  { alg, jwk }: ProofHeader,
  now: number,
): Promise<EmbeddedKey> {
  const key = await EmbeddedJWK({ alg, jwk });
  // jose checks the length when it verifies; the synchronous check must not skip it.
  const { modulusLength } = key.algorithm as { modulusLength?: number };
  if (modulusLength !== undefined && modulusLength < 2048) {
    throw new TypeError(`${alg} requires a key of 2048 bits or more`);
  }
  const made = {
    alg,
    jwk,
    key,
    jkt: await calculateJwkThumbprint(jwk),
    check: signatureCheck(alg, key, nodeCrypto),
  };
  kept.set(segment, made, now + KEPT_FOR, now);
  return made;
}
