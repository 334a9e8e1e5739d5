import { isScopeToken } from 'vouch';

/** The longest scope the service keeps. */
const MAX_SCOPE_LENGTH = 64;

/** Why a scope cannot be granted, or `undefined` when it can. */
export function scopeProblem(scope: string): string | undefined {
  if (isScopeToken(scope) && scope.length <= MAX_SCOPE_LENGTH) return undefined;
  return 'a scope is 1 to 64 printable ASCII characters, without space, " or \\';
}

/**
 * The scopes a space-separated `scope` parameter names (RFC 6749 §3.3), sorted and without
 * duplicates, or `undefined` when it is not such a list.
 */
export function parseScope(scope: string): string[] | undefined {
  const scopes = scope.split(' ');
  if (scopes.some((one) => scopeProblem(one) !== undefined)) return undefined;
  return sortedScopes(scopes);
}

/** Scopes as the service keeps and shows them: sorted, each once. */
export function sortedScopes(scopes: Iterable<string>): string[] {
  return [...new Set(scopes)].sort();
}

/** Scopes stored space-separated (`''` for none) as a sorted list. */
export function storedScopes(stored: string | null): string[] {
  return stored === null || stored === '' ? [] : sortedScopes(stored.split(' '));
}

/**
 * What a token may do now: the scopes it was issued with among those `granted` (its user's grants
 * held without interruption since it was issued), so that a grant withdrawn takes the scope away
 * from the tokens issued before.
 */
export function effectiveScopes(issued: string | null, granted: string | null): string[] {
  const held = new Set(storedScopes(granted));
  return storedScopes(issued).filter((scope) => held.has(scope));
}
