import { fromBase64, toBase64 } from '../internal/base64.js';
import { utf8 } from '../core/utf8.js';

/** A username and password decoded from HTTP Basic credentials. */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

// RFC 4648 §4 base64, standard alphabet, with padding required and nothing after it.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// C0 controls, DEL and C1 controls: RFC 7617 forbids control characters in user-pass.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes the token68 of `Authorization: Basic <token68>` (RFC 7617) strictly: canonical base64,
 * valid UTF-8, no control characters, a colon, a non-empty username. The split is at the first
 * colon, so passwords may contain colons; nothing is percent-decoded.
 * Returns `undefined` for anything else. Never throws.
 */
export function parseBasicCredentials(token68: string): BasicCredentials | undefined {
  if (token68 === '' || !BASE64.test(token68)) return undefined;
  // Non-canonical encodings (stray bits in the last character) are refused.
  const bytes = fromBase64(token68);
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  if (CONTROL.test(text)) return undefined;
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** Encodes credentials for an `Authorization: Basic` header (for clients and tests). */
export function encodeBasicCredentials(username: string, password: string): string {
  return toBase64(utf8(`${username}:${password}`));
}
