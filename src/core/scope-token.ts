// RFC 6749 §3.3 scope-token: printable ASCII but space, `"` and `\`.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Whether `scope` is an RFC 6749 §3.3 scope-token: one or more printable ASCII characters, none
 * a space, `"` or `\`.
 *
 * @example isScopeToken('pets:read') // true; isScopeToken('pets read') // false
 */
export function isScopeToken(scope: string): boolean {
  return SCOPE_TOKEN.test(scope);
}
