/** An `Authorization` header split into its scheme word and the rest. */
export interface AuthorizationParts {
  /** The scheme word as sent (compare it ASCII case-insensitively). */
  readonly scheme: string;
  /** Everything after the separating spaces; may be empty. */
  readonly credentials: string;
}

// RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]. The scheme is a
// token; only spaces separate it from the credentials (a tab does not, by the contract). Scanned
// by hand rather than with a regular expression: this runs on every request that carries one.
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-") {
  TCHAR[c.charCodeAt(0)] = 1;
}
const SPACE = 0x20;

/**
 * Splits an `Authorization` header value into scheme and credentials.
 * Returns `undefined` when the value does not start with a valid scheme token. Never throws.
 *
 * @example parseAuthorization('Bearer abc') // { scheme: 'Bearer', credentials: 'abc' }
 */
export function parseAuthorization(value: string): AuthorizationParts | undefined {
  const length = value.length;
  let end = 0;
  while (end < length && TCHAR[value.charCodeAt(end)] === 1) end++;
  if (end === 0) return undefined;
  if (end === length) return { scheme: value, credentials: '' };
  if (value.charCodeAt(end) !== SPACE) return undefined;
  let start = end + 1;
  while (start < length && value.charCodeAt(start) === SPACE) start++;
  return { scheme: value.slice(0, end), credentials: value.slice(start) };
}

const UPPER_A = 0x41;
const UPPER_Z = 0x5a;

/** ASCII case-insensitive comparison of a received scheme word with the expected one. */
export function isScheme(received: string, expectedLower: string): boolean {
  if (received.length !== expectedLower.length) return false;
  for (let i = 0; i < received.length; i++) {
    let c = received.charCodeAt(i);
    // Only ASCII letters fold: toLowerCase() would also turn U+212A KELVIN SIGN into "k".
    if (c < SPACE || c > 0x7e) return false;
    if (c >= UPPER_A && c <= UPPER_Z) c += 0x20;
    if (c !== expectedLower.charCodeAt(i)) return false;
  }
  return true;
}
