import { ConfigurationError } from './errors.js';
import { isScopeToken } from './scope-token.js';

export { isScopeToken } from './scope-token.js';

/**
 * The scopes a credential's value grants, read from its usual places: `scopes` (a list, as the
 * service's tokens carry), `scope` (space-separated, RFC 6749 §3.3 and JWT's RFC 8693 claim) or
 * `scp` (a list or a string, as some issuers write it). None for anything else.
 *
 * @example grantedScopes({ sub: 'ann', scope: 'pets:read pets:write' }) // ['pets:read', 'pets:write']
 */
export function grantedScopes(value: unknown): readonly string[] {
  if (typeof value !== 'object' || value === null) return [];
  const { scopes, scope, scp } = value as Record<string, unknown>;
  for (const claim of [scopes, scope, scp]) {
    if (typeof claim === 'string') return claim.split(' ').filter((part) => part !== '');
    if (Array.isArray(claim)) return claim.filter((part) => typeof part === 'string');
  }
  return [];
}

/** Checks the scopes an operation declares, naming `where` when one cannot be a scope. */
export function checkScopes(scopes: unknown, where: string): readonly string[] {
  if (!Array.isArray(scopes) || scopes.length === 0) {
    throw new ConfigurationError(`${where}: scopes must be a non-empty list of scope names`);
  }
  for (const scope of scopes) {
    if (typeof scope !== 'string' || !isScopeToken(scope)) {
      throw new ConfigurationError(
        `${where}: scope ${JSON.stringify(scope)} is not an RFC 6749 scope-token (printable ASCII, no space, quote or backslash)`,
      );
    }
  }
  return Object.freeze([...new Set(scopes as string[])]);
}
