/** An `Authorization` header split into its scheme word and the rest. */
export interface AuthorizationParts {
  /** The scheme word as sent (compare it ASCII case-insensitively). */
  readonly scheme: string;
  /** Everything after the separating spaces; may be empty. */
  readonly credentials: string;
}

// RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]. The scheme is a
// token; only spaces separate it from the credentials (a tab does not, by the contract).
const AUTHORIZATION = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/s;

/**
 * Splits an `Authorization` header value into scheme and credentials.
 * Returns `undefined` when the value does not start with a valid scheme token. Never throws.
 *
 * @example parseAuthorization('Bearer abc') // { scheme: 'Bearer', credentials: 'abc' }
 */
export function parseAuthorization(value: string): AuthorizationParts | undefined {
  const match = AUTHORIZATION.exec(value);
  if (match === null) return undefined;
  return { scheme: match[1] ?? '', credentials: match[2] ?? '' };
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** ASCII case-insensitive comparison of a received scheme word with the expected one. */
export function isScheme(received: string, expectedLower: string): boolean {
  // toLowerCase() alone is Unicode-aware: it folds U+212A KELVIN SIGN to "k".
  return (
    received.length === expectedLower.length &&
    received.toLowerCase() === expectedLower &&
    PRINTABLE_ASCII.test(received)
  );
}
