// What vouch's portable entries take from node:crypto where the runtime has it (Node, Bun and
// Deno give `process.getBuiltinModule`): synchronous signature checks and hashes, which cost
// about half of WebCrypto's (a trip through a thread pool) or a hash in plain code. Elsewhere
// `nodeCrypto` is undefined and callers keep to the portable way.

import type { CryptoKey } from 'jose';

/** A public key of node:crypto, as made from a WebCrypto `CryptoKey`. */
export interface NodeKey {
  readonly type: string;
}

/** The key and its JWS parameters, as node:crypto's `verify` takes them. */
export interface NodeVerifyKey {
  readonly key: NodeKey;
  readonly dsaEncoding?: 'ieee-p1363';
  readonly padding?: number;
  readonly saltLength?: number;
}

/** The part of node:crypto used here. */
export interface NodeCrypto {
  readonly KeyObject: { from(key: CryptoKey): NodeKey };
  readonly constants: {
    readonly RSA_PKCS1_PSS_PADDING: number;
    readonly RSA_PSS_SALTLEN_DIGEST: number;
  };
  verify(
    algorithm: string | null,
    data: Uint8Array,
    key: NodeVerifyKey,
    signature: Uint8Array,
  ): boolean;
  createHash(algorithm: 'sha256'): {
    update(data: string): { digest(encoding: 'base64url'): string };
  };
  /** The one-shot hash, without a Hash object (Node 21.7+, Bun, Deno 2.2+). */
  readonly hash?: (algorithm: 'sha256', data: string, encoding: 'base64url') => string;
}

interface WithBuiltins {
  readonly process?: { readonly getBuiltinModule?: (id: string) => unknown };
}

/** node:crypto, or undefined on a runtime without it. */
export const nodeCrypto = (globalThis as WithBuiltins).process?.getBuiltinModule?.(
  'node:crypto',
) as NodeCrypto | undefined;
