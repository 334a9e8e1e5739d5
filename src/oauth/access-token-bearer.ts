import type { AuthenticatorOptions } from '../core/authenticator.js';
import { REJECTED, type Awaitable, type Nothing, type Rejected } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { CertificateSource } from '../edge/edge.js';
import { presentsUnusableCertificate } from '../edge/presents-unusable-certificate.js';
import { HttpBearer } from '../http/http-bearer.js';
import { provingCertificate, type TokenCheck } from './certificate-possession.js';
import type { Possession } from './confirmation.js';
import type { ProtectedResource } from './protected-resource.js';

/** The options every access-token Bearer takes beside what checks its tokens. */
export interface AccessTokenBearerOptions extends AuthenticatorOptions {
  /** Longest token accepted, in characters (default 4096). */
  readonly maxLength?: number;
  /** Documented description of the scheme. */
  readonly description?: string;
  /**
   * Where the request's client certificate is read (an `Edge` from `vouch`): a token bound to a
   * certificate (`cnf` `x5t#S256`, RFC 8705 §3) is then accepted over a connection presenting
   * that certificate only, and a request whose certificate cannot be used (a `Client-Cert`
   * header from no trusted proxy, say) is refused whatever its token, wherever this stands in
   * the route's `auth` and whatever else there would accept it (see `distrusts`). Without it, no
   * request proves a certificate, so certificate-bound tokens are refused.
   */
  readonly clientCertificates?: CertificateSource;
}

/** What a subclass builds its {@link AccessTokenBearer} with: its options and what it fixes. */
interface AccessTokenBearerInit extends AccessTokenBearerOptions {
  readonly bearerFormat?: string | undefined;
  readonly resource?: ProtectedResource | undefined;
}

/**
 * A Bearer whose tokens may be sender-constrained (RFC 8705, RFC 9449): an {@link HttpBearer}
 * whose hook is `check`, the request's client certificate (given `clientCertificates`) added to
 * what the request proved, and which a `DPoPBearer` asks through `verifyToken`. A request whose
 * certificate cannot be used it distrusts (see `distrusts`), and so does a `DPoPBearer` over it.
 * `JwtBearer` and `IntrospectionBearer` are ones.
 */
export class AccessTokenBearer<TAuth = unknown> extends HttpBearer<TAuth> {
  readonly #verify: TokenCheck<TAuth>;
  readonly #certificates: CertificateSource | undefined;

  constructor(check: TokenCheck<TAuth>, options: AccessTokenBearerInit) {
    const verify = provingCertificate(check, options.clientCertificates);
    super({
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.realm === undefined ? {} : { realm: options.realm }),
      ...(options.consultsStore === undefined ? {} : { consultsStore: options.consultsStore }),
      ...(options.maxLength === undefined ? {} : { maxLength: options.maxLength }),
      ...(options.bearerFormat === undefined ? {} : { bearerFormat: options.bearerFormat }),
      ...(options.description === undefined ? {} : { description: options.description }),
      resource: options.resource,
      authenticate: (request, token) => verify(request, token),
    });
    this.#verify = verify;
    this.#certificates = options.clientCertificates;
  }

  /**
   * Given `clientCertificates`, a request whose certificate cannot be used (a `Client-Cert` from
   * no trusted proxy, a malformed one, one the TLS layer did not verify) is refused wherever this
   * stands in its `auth`, as by a `ClientCertificateAuth`; a token it presents is refused with it.
   */
  override distrusts(request: RequestView): boolean | Rejected {
    const certificates = this.#certificates;
    if (certificates === undefined || !presentsUnusableCertificate(certificates, request)) {
      return false;
    }
    return this.extract(request).state === 'absent' ? true : REJECTED;
  }

  /**
   * Verifies a token as a request presented it, with what the request proved it holds (a DPoP
   * key, a client certificate): a token bound to a key or certificate (`cnf`) is accepted only
   * when `possession` proves it. The Bearer path passes no possession; `DPoPBearer` passes its
   * proof's key. Given `clientCertificates`, the request's certificate is added to it on either
   * path. `authenticate` overridden in a subclass is not called on this path.
   */
  verifyToken(
    request: AuthRequest,
    token: string,
    possession: Possession,
  ): Awaitable<TAuth | Nothing> {
    return this.#verify(request, token, possession);
  }
}
