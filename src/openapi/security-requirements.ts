import type { Requirement } from '../core/auth-spec.js';

/**
 * An OpenAPI Security Requirement Object: the schemes that must all be satisfied, each with the
 * scopes it needs (OpenAPI 3.1 allows them for every type of scheme).
 */
export type SecurityRequirement = Record<string, string[]>;

/**
 * The operation `security` for a route's requirements: one requirement object per entry of the
 * any-of list, in order, an all-of group naming every member (AND), each listing the `scopes`
 * the operation requires; `[]` for `null`, which says "no credential" explicitly, so the
 * operation neither inherits a top-level `security` nor looks undecided to linters.
 *
 * Members without a documented scheme (custom functions declared without `securityScheme`) are
 * left out: a client cannot send what is not described, and the credentials it can send are still
 * shown. An entry left with no documented member is dropped, and so is an entry that repeats an
 * earlier one; when nothing is left the result is `[]` too (nothing a client can send), and the
 * route's 401 is still documented (see {@link errorResponses}).
 *
 * @example securityRequirements([[bearer], [apiKey, session]]) // [{ bearerAuth: [] }, { apiKeyHeader_key: [], sessionAuth: [] }]
 */
export function securityRequirements(
  requirements: readonly Requirement[] | null,
  scopes: readonly string[] = [],
): SecurityRequirement[] {
  if (requirements === null) return [];
  const result: SecurityRequirement[] = [];
  const seen = new Set<string>();
  for (const requirement of requirements) {
    const names: string[] = [];
    for (const member of requirement) {
      if (member.securityScheme !== undefined && !names.includes(member.schemeName)) {
        names.push(member.schemeName);
      }
    }
    if (names.length === 0) continue;
    // The same set of schemes in another order is the same requirement.
    const key = JSON.stringify([...names].sort());
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(Object.fromEntries(names.map((name) => [name, [...scopes]])));
  }
  return result;
}
