import { fromBase64 } from '../internal/base64.js';

// RFC 8941 §3.3.5: a Byte Sequence is base64 between colons; padding may be left out (§4.2.7).
const BYTE_SEQUENCE =
  /^ *:((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?): *$/;

/**
 * The DER of the certificate in an RFC 9440 `Client-Cert` value: a Structured Field Byte Sequence
 * (`:MIIB…=:`), spaces around it allowed. Anything else is `undefined`: parameters (RFC 9440
 * defines none), a list (two lines joined with ", "), an empty sequence, a base64 spelling that
 * is not canonical (non-zero pad bits).
 */
export function parseClientCertHeader(value: string): Uint8Array | undefined {
  const match = BYTE_SEQUENCE.exec(value);
  const base64 = match?.[1];
  if (base64 === undefined || base64 === '') return undefined;
  return fromBase64(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
}
