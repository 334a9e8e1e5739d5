import type { RequestView } from '../core/request.js';
import type { CertificateSource } from './edge.js';

/**
 * Whether the request presents a client certificate that `source` finds unusable: a
 * `Client-Cert` or `Client-Cert-Chain` from no trusted proxy, a malformed or repeated
 * `Client-Cert`, a TLS certificate the server's `ca` did not verify. Whatever reads certificates
 * through `source` distrusts such a request (`Authenticator#distrusts`), wherever it stands.
 */
export function presentsUnusableCertificate(
  source: CertificateSource,
  request: RequestView,
): boolean {
  const found = source.clientCertificate(request);
  return found !== undefined && 'unusable' in found;
}
