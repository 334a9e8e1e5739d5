/**
 * What a request proved it holds, for a sender-constrained access token to be checked against:
 * the RFC 7638 thumbprint of the key its DPoP proof was signed with (RFC 9449), and the SHA-256
 * thumbprint of the client certificate it came with (RFC 8705), each base64url without padding.
 */
export interface Possession {
  readonly jkt?: string | undefined;
  readonly x5tS256?: string | undefined;
}

/** The `cnf` members a resource knows how to check, and what each is checked against. */
const CHECKS: Readonly<Record<string, (possession: Possession) => string | undefined>> = {
  jkt: (possession) => possession.jkt,
  'x5t#S256': (possession) => possession.x5tS256,
};

/**
 * Whether a token's confirmation claim (`cnf`, RFC 7800) is satisfied by what the request
 * proved. A token without `cnf` is a plain Bearer token, fit for any request but one that
 * proved a DPoP key (RFC 9449 §7.1: the `DPoP` scheme carries tokens bound to that key only). A
 * bound token needs every member it names proved with the same thumbprint; a member this
 * resource does not know, or an empty `cnf`, refuses (a binding left unchecked is a downgrade).
 */
export function confirms(cnf: unknown, possession: Possession = {}): boolean {
  if (cnf === undefined) return possession.jkt === undefined;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) return false;
  const members = Object.entries(cnf);
  if (members.length === 0) return false;
  if (possession.jkt !== undefined && !Object.hasOwn(cnf, 'jkt')) return false;
  for (const [name, expected] of members) {
    const proved = Object.hasOwn(CHECKS, name) ? CHECKS[name]?.(possession) : undefined;
    if (proved === undefined || typeof expected !== 'string' || expected !== proved) return false;
  }
  return true;
}
