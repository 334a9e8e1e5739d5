import { sha256 } from '@noble/hashes/sha2.js';
import type { ConnectionView } from '../core/request.js';
import { toBase64url } from '../internal/base64.js';

/** The client certificate a request came with, as an {@link Edge} found it. */
export interface ClientCertificate {
  /** The certificate, DER-encoded. */
  readonly der: Uint8Array;
  /**
   * Its SHA-256 thumbprint, base64url without padding: what the `cnf` `x5t#S256` of a token
   * bound to it holds (RFC 8705 §3.1).
   */
  readonly x5tS256: string;
  /** From the TLS handshake ended in this process, or from a trusted proxy's `Client-Cert`. */
  readonly from: 'tls' | 'proxy';
}

/**
 * A certificate the request presented that cannot be used, and why: a `Client-Cert` or
 * `Client-Cert-Chain` header from a peer that is no trusted proxy (`untrusted-peer`), a
 * `Client-Cert` that is no single RFC 9440 value (`malformed`), or a TLS certificate that the
 * server's `ca` did not verify (`unverified`).
 * Whoever reads it refuses the request: nothing about it may be believed.
 */
export interface UnusableCertificate {
  readonly unusable: 'untrusted-peer' | 'malformed' | 'unverified';
}

/** What an edge finds: a certificate, one that cannot be used, or none (`undefined`). */
export type FoundCertificate = ClientCertificate | UnusableCertificate | undefined;

const UNUSABLE = {
  'untrusted-peer': Object.freeze({ unusable: 'untrusted-peer' }),
  malformed: Object.freeze({ unusable: 'malformed' }),
  unverified: Object.freeze({ unusable: 'unverified' }),
} as const satisfies Record<UnusableCertificate['unusable'], UnusableCertificate>;

/** The shared verdict for an unusable certificate. */
export function unusable(reason: UnusableCertificate['unusable']): UnusableCertificate {
  return UNUSABLE[reason];
}

/** A certificate with its thumbprint. */
export function clientCertificate(der: Uint8Array, from: 'tls' | 'proxy'): ClientCertificate {
  return Object.freeze({ der, x5tS256: toBase64url(sha256(der)), from });
}

/**
 * The certificate of a TLS connection ended in this process: usable only when the TLS layer
 * verified it against the server's `ca` (`requestCert: true`; with `rejectUnauthorized: false`
 * the connection stays open without one, or with one that failed, so that routes may differ).
 */
export function socketCertificate(socket: ConnectionView | undefined): FoundCertificate {
  if (socket?.encrypted !== true) return undefined;
  const certificate = socket.getPeerX509Certificate?.();
  if (certificate === undefined) return undefined;
  if (socket.authorized !== true) return UNUSABLE.unverified;
  // Node's Buffer, seen as the plain Uint8Array a certificate from a proxy is.
  const { raw } = certificate;
  return clientCertificate(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength), 'tls');
}
