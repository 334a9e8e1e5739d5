import { ABSENT } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { singleHeaderValue } from '../internal/read-once.js';
import { parseClientCertHeader } from './client-cert-header.js';
import {
  clientCertificate,
  socketCertificate,
  unusable,
  type FoundCertificate,
} from './client-certificate.js';
import { forwardedOrigin, joinPath, publicOrigin } from './public-url.js';
import { trustedProxies, type TrustedProxies } from './trusted-proxies.js';

/** Options of {@link edge}. */
export interface EdgeOptions {
  /**
   * The origin clients reach the application at (`https://api.example.com`): public URLs are
   * this and the request's path, whoever forwarded the request.
   */
  readonly publicOrigin?: string | URL;
  /**
   * The proxies in front of the application, as Express's `trust proxy` takes them
   * (`'loopback'`, `['10.0.0.0/8', 'fd00::/8']`): only a request whose peer is one of them is
   * believed about its public URL (`X-Forwarded-Proto`, `X-Forwarded-Host`) and its client
   * certificate (RFC 9440 `Client-Cert`). Default none.
   */
  readonly trustedProxies?: TrustedProxies;
}

/**
 * What a request says about the connection the client made, believed only from the peers
 * trusted to say it. An engine's request view (`request.socket`) carries the peer.
 */
export interface Edge {
  /**
   * The URL the client asked for, `scheme://host[:port]/path` without query and fragment,
   * normalised (scheme and host in lower case, no default port): the configured `publicOrigin`
   * with the request's path; else, from a trusted proxy only, its `X-Forwarded-Proto` and
   * `X-Forwarded-Host`. `undefined` when neither tells: `Host` and TLS SNI are the client's
   * word, so a direct connection, TLS or not, has no public URL without `publicOrigin`.
   */
  publicUrl(request: RequestView): string | undefined;
  /**
   * The client certificate of the request: from a trusted proxy, its RFC 9440 `Client-Cert`
   * header (and never the proxy's own TLS certificate); from anyone else, the certificate of a
   * TLS connection ended in this process, when its `ca` verified it. A `Client-Cert` or
   * `Client-Cert-Chain` header from anyone else, a `Client-Cert` that is malformed or repeated,
   * or a certificate the TLS layer did not verify, is an {@link UnusableCertificate}, and the
   * request must be refused. `undefined` when there is none.
   */
  clientCertificate(request: RequestView): FoundCertificate;
}

/** Where a request's client certificate is read: an {@link Edge}, or anything with its method. */
export type CertificateSource = Pick<Edge, 'clientCertificate'>;

/**
 * The application's edge: where its public URLs come from and which proxies it trusts, for what
 * checks the connection (DPoP's `htu`, client certificates) to read requests through.
 *
 * @example
 * // Behind nginx on the same host, which sets X-Forwarded-Proto, X-Forwarded-Host, Client-Cert:
 * const front = edge({ trustedProxies: 'loopback' });
 * // Or with the public origin fixed by configuration:
 * const fixed = edge({ publicOrigin: 'https://api.example.com', trustedProxies: '10.0.0.0/8' });
 */
export function edge(options: EdgeOptions = {}): Edge {
  const origin =
    options.publicOrigin === undefined ? undefined : publicOrigin(options.publicOrigin);
  const trusted = trustedProxies(options.trustedProxies);
  return {
    publicUrl(request) {
      if (origin !== undefined) return joinPath(origin, request.url);
      if (!trusted(request.socket?.remoteAddress)) return undefined;
      const forwarded = forwardedOrigin(request);
      return forwarded === undefined ? undefined : joinPath(forwarded, request.url);
    },
    clientCertificate(request) {
      const header = singleHeaderValue(request, 'client-cert', 'Client-Cert');
      if (!trusted(request.socket?.remoteAddress)) {
        // Either RFC 9440 header from the client itself is a forgery, even beside a TLS one.
        const forged =
          header !== ABSENT ||
          singleHeaderValue(request, 'client-cert-chain', 'Client-Cert-Chain') !== ABSENT;
        return forged ? unusable('untrusted-peer') : socketCertificate(request.socket);
      }
      if (header === ABSENT) return undefined;
      const der = typeof header === 'string' ? parseClientCertHeader(header) : undefined;
      return der === undefined ? unusable('malformed') : clientCertificate(der, 'proxy');
    },
  };
}
