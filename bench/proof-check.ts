// What `npm run bench` measures a DPoP request's cost in: one proof's signature check, ES256 with
// node:crypto's `verify` (what vouch runs on Node), timed in this process in every round. One
// such check is the floor of what DPoP adds to a request, and what it costs depends on the host:
// counted in checks, the DPoP route's cost can be judged on any host.
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';

/** Proofs of the pool the check is timed on, each verified again and again. */
export const TIMED_PROOFS = 100;

/** Checks timed a round: about a tenth of a second. */
export const CHECKS_A_ROUND = 1500;

/** What the unit is, in the tables. */
export const PROOF_CHECK = 'one proof signature check';

/** One proof's signature check, over `proofs` (ES256, all with the key in the first's header). */
export interface ProofCheck {
  /** CPU µs of one check: the mean over `count` checks, each of which must verify. */
  time(count: number): number;
}

/**
 * The signature check of `proofs`, each decoded once, here, so that only node:crypto's `verify`
 * is timed: the bytes signed and the signature, under the public key of the first proof's `jwk`.
 * Throws when a proof does not verify, so that what is timed is a check that passes.
 */
export function proofCheck(proofs: readonly string[]): ProofCheck {
  const [header] = proofs[0]!.split('.');
  const { alg, jwk } = JSON.parse(Buffer.from(header!, 'base64url').toString()) as {
    alg: string;
    jwk: JsonWebKey;
  };
  if (alg !== 'ES256') throw new Error(`proofCheck times ES256, not ${alg}`);
  // JWS ES256 is the raw r || s (RFC 7518 §3.4), not DER.
  const key = {
    key: createPublicKey({ key: jwk, format: 'jwk' }),
    dsaEncoding: 'ieee-p1363' as const,
  };
  const signed = proofs.map((proof) => {
    const end = proof.lastIndexOf('.');
    const input = Buffer.from(proof.slice(0, end));
    return { input, signature: Buffer.from(proof.slice(end + 1), 'base64url') };
  });
  return {
    time(count) {
      const before = process.cpuUsage();
      for (let i = 0; i < count; i++) {
        const { input, signature } = signed[i % signed.length]!;
        if (!verify('sha256', input, key, signature)) {
          throw new Error(`proof ${i % signed.length} does not verify`);
        }
      }
      const { user, system } = process.cpuUsage(before);
      return (user + system) / count;
    },
  };
}
