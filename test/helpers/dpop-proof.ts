// DPoP proofs (RFC 9449 §4.2) made by hand with jose, for what the `dpop` package and real
// clients never sign: another typ, alg none or HS256, a private key in the header, odd claims.
import { createHash, randomUUID } from 'node:crypto';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';

/** A client's DPoP key pair, its public JWK and the JWK's RFC 7638 thumbprint. */
export interface ProofKey {
  readonly alg: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly jwk: JWK;
  readonly jkt: string;
}

/** A fresh key pair for `alg` (extractable, so that the `dpop` package signs with it too). */
export async function proofKey(alg = 'ES256'): Promise<ProofKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { alg, privateKey, publicKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

/** `base64url(SHA-256(token))`, a proof's `ath` (RFC 9449 §4.2). */
export function athOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** What a proof is about, and what to change of it; `undefined` leaves a member out. */
export interface ProofInit {
  readonly htm?: string;
  readonly htu: string;
  /** The access token, whose hash is `ath`. */
  readonly token?: string;
  /** Claims over the defaults (`iat` now, a fresh `jti`, `htm` GET, `ath`). */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Header members over the defaults (`alg` the key's, `typ` `dpop+jwt`, `jwk` the key's). */
  readonly header?: Readonly<Record<string, unknown>>;
}

/** A proof signed with `key`, as the RFC shapes it, with what `init` changes. */
export function signProof(key: ProofKey, init: ProofInit): Promise<string> {
  const claims = withoutUndefined({
    htm: init.htm ?? 'GET',
    htu: init.htu,
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    ath: init.token === undefined ? undefined : athOf(init.token),
    ...init.claims,
  });
  const header = withoutUndefined({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...init.header });
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key.privateKey);
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
