import { ConfigurationError } from '../core/errors.js';

/**
 * The JWS algorithms a DPoP proof may be signed with by default: every asymmetric one jose
 * verifies with a key in the proof (RFC 9449 §4.2: `none` and MAC algorithms are never allowed).
 */
export const DPOP_ALGORITHMS: readonly string[] = Object.freeze([
  'ES256',
  'ES384',
  'ES512',
  'Ed25519',
  'EdDSA',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
]);

/**
 * The `algorithms` option of a `DPoPBearer`, checked: a non-empty list of asymmetric JWS
 * algorithms, each once. `none` and `HS256`/`HS384`/`HS512` are refused with a reason: a proof
 * signed without a private key proves nothing.
 */
export function dpopAlgorithms(value: readonly string[] | undefined): readonly string[] {
  if (value === undefined) return DPOP_ALGORITHMS;
  const list: readonly unknown[] = Array.isArray(value) ? value : [];
  if (list.length === 0) {
    throw new ConfigurationError('DPoPBearer algorithms must be a non-empty list');
  }
  for (const alg of list) {
    if (typeof alg === 'string' && (alg.toLowerCase() === 'none' || alg.startsWith('HS'))) {
      throw new ConfigurationError(
        `DPoPBearer algorithms: ${alg} is not asymmetric, and a DPoP proof must be signed with the client's private key (RFC 9449 §4.2)`,
      );
    }
    if (typeof alg !== 'string' || !DPOP_ALGORITHMS.includes(alg)) {
      throw new ConfigurationError(
        `DPoPBearer algorithms: ${JSON.stringify(alg)} is not one of ${DPOP_ALGORITHMS.join(', ')}`,
      );
    }
  }
  if (new Set(list).size !== list.length) {
    throw new ConfigurationError('DPoPBearer algorithms must name each algorithm once');
  }
  return Object.freeze([...value]);
}
