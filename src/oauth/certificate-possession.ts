import type { Awaitable, Nothing } from '../core/outcome.js';
import type { AuthRequest } from '../core/request.js';
import type { CertificateSource } from '../edge/edge.js';
import type { Possession } from './confirmation.js';

/** A token's check, given what the request proved it holds. */
export type TokenCheck<TAuth> = (
  request: AuthRequest,
  token: string,
  possession?: Possession,
) => Awaitable<TAuth | Nothing>;

/**
 * `check`, with the request's client certificate among what the request proves: its thumbprint
 * is `possession.x5tS256`, so a token bound to it (RFC 8705 §3) is accepted over that connection
 * only. A certificate that cannot be used (forged, malformed, unverified) refuses the token
 * unheard, bound or not: the request lies about its connection. Without `certificates`, `check`.
 */
export function provingCertificate<TAuth>(
  check: TokenCheck<TAuth>,
  certificates: CertificateSource | undefined,
): TokenCheck<TAuth> {
  if (certificates === undefined) return check;
  return (request, token, possession = {}) => {
    const found = certificates.clientCertificate(request);
    if (found === undefined) return check(request, token, possession);
    if ('unusable' in found) return undefined;
    return check(request, token, { ...possession, x5tS256: found.x5tS256 });
  };
}
