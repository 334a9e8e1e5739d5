// The `Authorization` header's grammar (RFC 9110 §11.4) and the Bearer token's (RFC 6750 §2.1).
import { ABSENT, REJECTED, type Extraction } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { singleHeaderValue, startsWithFolded } from '../internal/read-once.js';

/** An `Authorization` header split into its scheme word and the rest. */
export interface AuthorizationParts {
  /** The scheme word as sent (compare it ASCII case-insensitively). */
  readonly scheme: string;
  /** Everything after the separating spaces; may be empty. */
  readonly credentials: string;
}

// RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]. The scheme is a
// token; only spaces separate it from the credentials (a tab does not, by the contract).
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-") {
  TCHAR[c.charCodeAt(0)] = 1;
}
const SPACE = 0x20;

/**
 * Where the run of token characters from `from` ends: from 0, the end of the scheme word (0 when
 * the value does not open with one).
 */
export function schemeEnd(value: string, from = 0): number {
  let end = from;
  while (end < value.length && TCHAR[value.charCodeAt(end)] === 1) end++;
  return end;
}

/**
 * Where the credentials begin once the scheme ends at `end`: past the spaces that follow it, or
 * at the end of the value; -1 when something else follows the scheme (a tab, a colon).
 */
export function credentialsStart(value: string, end: number): number {
  if (end === value.length) return end;
  if (value.charCodeAt(end) !== SPACE) return -1;
  let start = end + 1;
  while (start < value.length && value.charCodeAt(start) === SPACE) start++;
  return start;
}

/**
 * Splits an `Authorization` header value into scheme and credentials.
 * Returns `undefined` when the value does not start with a valid scheme token. Never throws.
 *
 * @example parseAuthorization('Bearer abc') // { scheme: 'Bearer', credentials: 'abc' }
 */
export function parseAuthorization(value: string): AuthorizationParts | undefined {
  const end = schemeEnd(value);
  const start = end === 0 ? -1 : credentialsStart(value, end);
  if (start === -1) return undefined;
  return { scheme: value.slice(0, end), credentials: value.slice(start) };
}

/** ASCII case-insensitive comparison of a received scheme word with the expected one. */
export function isScheme(received: string, expectedLower: string): boolean {
  if (received.length !== expectedLower.length) return false;
  for (let i = 0; i < received.length; i++) {
    const c = received.charCodeAt(i);
    // Only printable ASCII can match: toLowerCase() would turn U+212A KELVIN SIGN into "k".
    if (c < SPACE || c > 0x7e) return false;
  }
  return startsWithFolded(received, expectedLower);
}

/**
 * The credentials of a single `Authorization` header in the given scheme, found as
 * `parseAuthorization` and `isScheme` would find them, without copying the scheme word: absent
 * when there is no header, another scheme or nothing after the scheme word; ambiguous when the
 * header is repeated; rejected when the scheme word is followed by other white space than spaces
 * (a tab, say: this scheme's credentials, badly sent) or the rest is longer than `maxLength`.
 *
 * @param schemeLower - the expected scheme word in lower case, letters only (`bearer`, `basic`).
 */
export function authorizationCredentials(
  request: RequestView,
  schemeLower: string,
  maxLength: number,
): Extraction<string> {
  const value = singleHeaderValue(request, 'authorization', 'Authorization');
  if (typeof value !== 'string') return value;
  // The scheme word, and no longer token (`Bearerx`).
  const end = schemeLower.length;
  if (!startsWithFolded(value, schemeLower) || schemeEnd(value, end) !== end) return ABSENT;
  const start = credentialsStart(value, end);
  if (start === -1) return value.charAt(end).trim() === '' ? REJECTED : ABSENT;
  if (start === value.length) return ABSENT;
  if (value.length - start > maxLength) return REJECTED;
  return { state: 'present', credential: value.slice(start) };
}

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Whether a string is an RFC 6750 `b64token`, the only shape a Bearer token may take. */
export function isB64token(value: string): boolean {
  return B64TOKEN.test(value);
}
