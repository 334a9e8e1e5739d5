// What every adapter answers at a protected resource's metadata paths.
import type { OperationAuth } from '../core/operation-auth.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import type { ProtectedResource } from './protected-resource.js';

/** Headers of the metadata: public JSON, readable by any origin (RFC 9728 §3). */
export const METADATA_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'access-control-allow-origin': '*',
};

/** Headers of the answer to a CORS preflight of the metadata: no credentials are involved. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
};

/** A member of a requirement, as the metadata reads it: a DPoP one names its algorithms. */
interface Member {
  readonly resource?: unknown;
  readonly securityScheme: SecurityScheme;
  readonly algorithms?: readonly string[];
}

/**
 * The metadata of `resource` as JSON, from the operations whose authentication its
 * authenticators take part in: `scopes_supported` is every scope they require; where a DPoP one
 * takes part, `dpop_signing_alg_values_supported` its algorithms, and
 * `dpop_bound_access_tokens_required` whether none of them takes the resource's tokens otherwise.
 */
export function metadataBody(
  resource: ProtectedResource,
  operations: Iterable<OperationAuth>,
): string {
  const scopes = new Set<string>();
  const dpopAlgorithms = new Set<string>();
  let unbound = false;
  for (const { requirements, scopes: required } of operations) {
    let served = false;
    for (const member of (requirements ?? []).flat() as readonly Member[]) {
      if (member.resource !== resource) continue;
      served = true;
      const { securityScheme: scheme } = member;
      if (scheme.type === 'http' && scheme.scheme.toLowerCase() === 'dpop') {
        for (const alg of member.algorithms ?? []) dpopAlgorithms.add(alg);
      } else {
        unbound = true;
      }
    }
    if (served) for (const scope of required ?? []) scopes.add(scope);
  }
  const dpop = { algorithms: dpopAlgorithms, required: !unbound };
  return JSON.stringify(resource.metadata(scopes, dpopAlgorithms.size === 0 ? undefined : dpop));
}
