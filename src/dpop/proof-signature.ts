import { base64url, compactVerify, type CryptoKey } from 'jose';
import { utf8 } from '../core/utf8.js';
import type { NodeCrypto, NodeVerifyKey } from '../internal/node-crypto.js';

/** A synchronous check of a JWS signature over its signing input, for one key and algorithm. */
export type SignatureCheck = (signingInput: Uint8Array, signature: Uint8Array) => boolean;

/**
 * The synchronous check of `alg` signatures by `key` with `crypto`, node:crypto where the runtime
 * has it (see src/internal/node-crypto.ts); `undefined` without, and the proof goes through jose.
 * `key` was imported for `alg` by jose, which checked that they fit each other.
 */
export function signatureCheck(
  alg: string,
  key: CryptoKey,
  crypto: NodeCrypto | undefined,
): SignatureCheck | undefined {
  if (crypto === undefined) return undefined;
  const [hash, parameters] = jwsParameters(alg, crypto);
  const verifyKey: NodeVerifyKey = { key: crypto.KeyObject.from(key), ...parameters };
  return (input, signature) => crypto.verify(hash, input, verifyKey, signature);
}

/** node:crypto's hash and key options for a JWS algorithm (RFC 7518 §3, RFC 8037, RFC 9864). */
function jwsParameters(
  alg: string,
  crypto: NodeCrypto,
): [hash: string | null, options: Omit<NodeVerifyKey, 'key'>] {
  if (alg === 'EdDSA' || alg === 'Ed25519') return [null, {}];
  const hash = `sha${alg.slice(2)}`;
  if (alg.startsWith('ES')) return [hash, { dsaEncoding: 'ieee-p1363' }];
  if (alg.startsWith('PS')) {
    const { RSA_PKCS1_PSS_PADDING, RSA_PSS_SALTLEN_DIGEST } = crypto.constants;
    return [hash, { padding: RSA_PKCS1_PSS_PADDING, saltLength: RSA_PSS_SALTLEN_DIGEST }];
  }
  return [hash, {}];
}

/**
 * Whether the compact JWS `proof` is signed by `key` as `alg`: through `check` when there is one,
 * else through jose's `compactVerify` (WebCrypto). Whatever cannot be checked (a signature of the
 * wrong length, a point off the curve) is not signed.
 */
export function isSignedBy(
  proof: string,
  alg: string,
  key: CryptoKey,
  check: SignatureCheck | undefined,
): boolean | Promise<boolean> {
  if (check === undefined) {
    return compactVerify(proof, key, { algorithms: [alg] }).then(
      () => true,
      () => false,
    );
  }
  const end = proof.lastIndexOf('.');
  try {
    return check(utf8(proof.slice(0, end)), base64url.decode(proof.slice(end + 1)));
  } catch {
    return false;
  }
}
