// Node's types, for the X509Certificate its declarations name: with TypeScript 6, a project's
// `types` no longer takes in every @types package by itself.
/// <reference types="node" preserve="true" />
import { X509Certificate } from 'node:crypto';
import { Authenticator, type AuthenticatorOptions } from '../core/authenticator.js';
import { ConfigurationError } from '../core/errors.js';
import {
  ABSENT,
  judgeHook,
  REJECTED,
  type Awaitable,
  type Nothing,
  type Outcome,
} from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import type { CertificateSource } from '../edge/edge.js';
import { presentsUnusableCertificate } from '../edge/presents-unusable-certificate.js';

/** Turns a verified client certificate into `request.auth`, or returns nothing to refuse it. */
export type CertificateMap<TAuth> = (
  certificate: X509Certificate,
  request: AuthRequest,
) => Awaitable<TAuth | Nothing>;

/** Options of {@link ClientCertificateAuth}. */
export interface ClientCertificateAuthOptions<TAuth> extends AuthenticatorOptions {
  /** Where the request's certificate is read: the application's `edge` from `vouch`. */
  readonly edge: CertificateSource;
  /**
   * Makes `request.auth` from the certificate (its subject, a SAN, its fingerprint looked up in
   * a table); `undefined`, `null` or `false` refuses it (401).
   */
  readonly map: CertificateMap<TAuth>;
  /** Documented description of the scheme. */
  readonly description?: string;
}

/**
 * Client certificates (mutual TLS): accepts a request whose client certificate was verified,
 * by the TLS layer of this process (`requestCert` and the clients' `ca`) or by a trusted proxy
 * that forwards it as RFC 9440 `Client-Cert`, and whose validity dates hold now (checked here
 * too, so a proxy that forwards an expired one is not believed). `request.auth` is what `map`
 * makes of the certificate, parsed as Node's `X509Certificate`. A certificate the edge finds
 * unusable (a `Client-Cert` or `Client-Cert-Chain` from no trusted proxy, a malformed one, one
 * the TLS layer did not verify) refuses the request, wherever this authenticator stands in its
 * `auth` (a list, an all-of group) and whatever else would accept it; none at all is absent,
 * and the next authenticator of a list runs.
 *
 * Documented as `{ type: 'mutualTLS' }` under the name `mutualTLS`. It sends no challenge: HTTP
 * has no authentication scheme for a certificate, which the client gives in the TLS handshake
 * or not at all (RFC 8705 defines none either), so a 401 it alone refuses carries no
 * `WWW-Authenticate`, like a session's. What it accepts is answered `Cache-Control: private`, as
 * for an API key: no `Authorization` header keeps shared caches from storing it.
 *
 * @example
 * const front = edge({ trustedProxies: 'loopback' });
 * const partners = new ClientCertificateAuth({
 *   edge: front,
 *   map: (certificate) => partnersBySubject.get(certificate.subject),
 * });
 */
export class ClientCertificateAuth<TAuth = unknown> extends Authenticator<TAuth> {
  readonly #edge: CertificateSource;
  readonly #map: CertificateMap<TAuth>;
  readonly #scheme: SecurityScheme;

  constructor(options: ClientCertificateAuthOptions<TAuth>) {
    super('mutualTLS', options);
    // What TypeScript refuses, for callers without it.
    const given: { readonly edge?: Partial<CertificateSource> } = options;
    if (typeof given.edge?.clientCertificate !== 'function') {
      throw new ConfigurationError('ClientCertificateAuth needs an edge: edge({ trustedProxies })');
    }
    if (typeof options.map !== 'function') {
      throw new ConfigurationError('ClientCertificateAuth needs map(certificate, request)');
    }
    this.#edge = options.edge;
    this.#map = options.map;
    this.#scheme = {
      type: 'mutualTLS',
      ...(options.description === undefined ? {} : { description: options.description }),
    };
  }

  override get securityScheme(): SecurityScheme {
    return this.#scheme;
  }

  /** A shared cache may store what answers a request without `Authorization` (RFC 9111 §3.5). */
  override get privateResponses(): boolean {
    return true;
  }

  /** A request whose certificate cannot be used lies about its connection: see `distrusts`. */
  override distrusts(request: RequestView): boolean {
    return presentsUnusableCertificate(this.#edge, request);
  }

  override verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>> {
    const found = this.#edge.clientCertificate(request);
    if (found === undefined) return ABSENT;
    if ('unusable' in found) return REJECTED;
    const certificate = parsed(found.der);
    if (certificate === undefined || !current(certificate, Date.now())) return REJECTED;
    // The adapter passes its own request object, which is the registered AuthRequest type.
    return judgeHook(this.#map(certificate, request as AuthRequest));
  }
}

/** The certificate, or `undefined` for bytes that are none (a proxy's header is only base64). */
function parsed(der: Uint8Array): X509Certificate | undefined {
  try {
    return new X509Certificate(der);
  } catch {
    return undefined;
  }
}

/** Whether `now` lies within the certificate's validity dates (RFC 5280 §4.1.2.5). */
function current(certificate: X509Certificate, now: number): boolean {
  return Date.parse(certificate.validFrom) <= now && now <= Date.parse(certificate.validTo);
}
