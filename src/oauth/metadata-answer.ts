// What every adapter answers at a protected resource's metadata paths.
import type { OperationAuth } from '../core/operation-auth.js';
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

/**
 * The metadata of `resource` as JSON: `scopes_supported` is every scope that an operation whose
 * authentication `resource`'s authenticators take part in requires.
 */
export function metadataBody(
  resource: ProtectedResource,
  operations: Iterable<OperationAuth>,
): string {
  const scopes = new Set<string>();
  for (const { requirements, scopes: required } of operations) {
    const served = requirements?.some((requirement) =>
      requirement.some((member) => (member as { resource?: unknown }).resource === resource),
    );
    if (served === true) for (const scope of required ?? []) scopes.add(scope);
  }
  return JSON.stringify(resource.metadata(scopes));
}
