import { decodeJwt, decodeProtectedHeader, type JWK, type JWTPayload } from 'jose';
import type { DPoPNonces } from './dpop-nonces.js';
import { embeddedKey, knownKey, type EmbeddedKey, type ProofHeader } from './embedded-key.js';
import { normalizeHtu } from './normalize-htu.js';
import { isSignedBy } from './proof-signature.js';
import { sha256url } from './sha256-url.js';

/** What a DPoP proof must match: the request it came with, and the server's rules. */
export interface DPoPProofExpectations {
  /** The request's method, which `htm` must equal. */
  readonly method: string;
  /** The request's public URL (`scheme://host[:port]/path`), which `htu` must equal, normalised. */
  readonly url: string;
  /** The access token sent with the proof, whose hash `ath` must be. */
  readonly accessToken: string;
  /** The JWS algorithms allowed (asymmetric only). */
  readonly algorithms: readonly string[];
  /** Seconds a proof is accepted after its `iat`. */
  readonly maxAge: number;
  /** Seconds of clock skew allowed on `iat`, either way. */
  readonly clockTolerance: number;
  /** The server's nonces, when a proof must carry one (RFC 9449 §9). */
  readonly nonces?: DPoPNonces | undefined;
  /** Milliseconds since the epoch. */
  readonly now: number;
}

/** A proof that passed: the key's thumbprint, and what the replay store must remember until when. */
export interface ValidDPoPProof {
  readonly valid: true;
  /** The RFC 7638 SHA-256 thumbprint of the proof's key, for the token's `cnf.jkt`. */
  readonly jkt: string;
  /** A digest of the thumbprint and `jti`: the proof's identity in the replay store. */
  readonly replayKey: string;
  /** Milliseconds since the epoch when the proof stops being fresh: forgetting it is safe then. */
  readonly expiresAt: number;
}

/**
 * A proof refused, and what the challenge says: a bad proof, or one without a fresh nonce (with
 * the nonce to retry with, for a `DPoP-Nonce` header).
 */
export type InvalidDPoPProof =
  | { readonly valid: false; readonly error: 'invalid_dpop_proof' }
  | { readonly valid: false; readonly error: 'use_dpop_nonce'; readonly nonce: string };

const INVALID: InvalidDPoPProof = Object.freeze({ valid: false, error: 'invalid_dpop_proof' });

/** Longest proof read, in characters: an RSA-4096 key and every claim fit well within. */
const MAX_PROOF_LENGTH = 8192;
/** JWK members that only a private or a symmetric key has (RFC 7518 §6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * Checks a DPoP proof JWT against the request it came with (RFC 9449 §4.3), cheapest first: its
 * header (`typ` `dpop+jwt`, no `crit`, a public `jwk`, `alg` allowed; a header whose key was
 * imported lately is not decoded again); a compact JWS; `htm`, `htu`, `iat` within
 * `[now - maxAge, now]` (give or take `clockTolerance`), a `jti`, `ath` the token's SHA-256;
 * the server's `nonce` when it has nonces (else `use_dpop_nonce`, with the nonce of the moment);
 * then the signature with the `jwk`. What is left to the caller: the token's `cnf.jkt` against
 * `jkt`, then the replay store, so that the store is touched only by an otherwise valid request.
 * Never throws; a refusal says which error a challenge names.
 *
 * @example
 * const result = await verifyDPoPProof(request.headers.dpop, {
 *   method: 'GET', url: 'https://api.example/mcp', accessToken, algorithms: ['ES256'],
 *   maxAge: 60, clockTolerance: 5, now: Date.now(),
 * });
 */
export async function verifyDPoPProof(
  proof: string,
  expected: DPoPProofExpectations,
): Promise<ValidDPoPProof | InvalidDPoPProof> {
  if (proof.length > MAX_PROOF_LENGTH) return INVALID;
  const { now } = expected;
  // The header's text alone decides it: one whose key was imported passed every check below.
  const segment = proof.slice(0, Math.max(0, proof.indexOf('.')));
  const known = knownKey(segment, now);
  const header = known ?? checkedHeader(proof);
  if (header === undefined || !expected.algorithms.includes(header.alg)) return INVALID;
  let claims: JWTPayload;
  try {
    claims = decodeJwt(proof);
  } catch {
    return INVALID;
  }
  const freshUntil = freshness(claims, expected);
  if (freshUntil === undefined) return INVALID;
  const { nonces } = expected;
  if (nonces !== undefined) {
    const { nonce } = claims;
    if (typeof nonce !== 'string' || !nonces.accepts(nonce, now)) {
      return { valid: false, error: 'use_dpop_nonce', nonce: nonces.issue(now) };
    }
  }
  let embedded: EmbeddedKey;
  try {
    embedded = known ?? (await embeddedKey(segment, header, now));
  } catch {
    // The key and its algorithm are the client's: whatever jose (JOSEError, a TypeError for an
    // RSA key under 2048 bits) or WebCrypto (a DOMException for a point off the curve) throws of
    // them, the proof proves nothing.
    return INVALID;
  }
  if (!(await isSignedBy(proof, header.alg, embedded.key, embedded.check))) return INVALID;
  const { jkt } = embedded;
  const replayKey = sha256url(`${jkt}.${String(claims.jti)}`);
  return { valid: true, jkt, replayKey, expiresAt: freshUntil };
}

/**
 * The algorithm and key of a proof's protected header, if it decodes and is a DPoP proof's:
 * `typ` `dpop+jwt`, no `crit`, an `alg` named, a public `jwk`. `undefined` otherwise.
 */
function checkedHeader(proof: string): ProofHeader | undefined {
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    return undefined;
  }
  const { alg, jwk } = header;
  if (!isDPoPType(header['typ'])) return undefined;
  // RFC 7515 §4.1.11: no JWS extension is understood here, so none may be critical.
  if (Object.hasOwn(header, 'crit')) return undefined;
  if (typeof alg !== 'string' || !isPublicJwk(jwk)) return undefined;
  return { alg, jwk };
}

/**
 * When the proof stops being fresh (milliseconds), if its request claims (`htm`, `htu`, `ath`,
 * `jti`) match and its `iat` is within the window; `undefined` otherwise.
 */
function freshness(claims: JWTPayload, expected: DPoPProofExpectations): number | undefined {
  const { htm, htu, iat, jti, ath } = claims;
  if (htm !== expected.method) return undefined;
  if (typeof htu !== 'string') return undefined;
  const url = normalizeHtu(htu);
  // The very text of the request's URL is that URL, normalised alike.
  if (url === undefined || (htu !== expected.url && url !== normalizeHtu(expected.url))) {
    return undefined;
  }
  if (typeof jti !== 'string' || jti === '') return undefined;
  if (ath !== sha256url(expected.accessToken)) return undefined;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return undefined;
  const { maxAge, clockTolerance } = expected;
  const now = expected.now / 1000;
  if (iat > now + clockTolerance || iat < now - maxAge - clockTolerance) return undefined;
  return (iat + maxAge + clockTolerance) * 1000;
}

/** `dpop+jwt`, compared as RFC 7515 §4.1.9 says: any case, `application/` left out or not. */
function isDPoPType(typ: unknown): boolean {
  if (typeof typ !== 'string') return false;
  const lower = typ.toLowerCase();
  return lower === 'dpop+jwt' || lower === 'application/dpop+jwt';
}

/** A JWK object with a `kty` and no private or symmetric key material (RFC 9449 §4.3 (7)). */
function isPublicJwk(jwk: unknown): jwk is JWK {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return false;
  if (typeof (jwk as JWK).kty !== 'string') return false;
  return PRIVATE_MEMBERS.every((member) => !Object.hasOwn(jwk, member));
}
