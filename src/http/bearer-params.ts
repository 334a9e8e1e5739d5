// Auth-params that Bearer and DPoP challenges share (RFC 6750 §3, RFC 9449 §7.1, RFC 9728 §5.1).
import { quote } from '../core/authenticator.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';

/** `, scope="…"` naming `scopes`, or nothing when there are none. */
export function scopeParam(scopes: readonly string[]): string {
  return scopes.length === 0 ? '' : `, scope=${quote(scopes.join(' '))}`;
}

/** `, resource_metadata="…"` pointing to the resource's metadata, or nothing without one. */
export function metadataParam(resource: ProtectedResource | undefined): string {
  return resource === undefined ? '' : `, resource_metadata=${quote(resource.metadataUrl)}`;
}
