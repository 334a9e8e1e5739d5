import type { Awaitable, Nothing, Rejected } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { Possession } from '../oauth/confirmation.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';

/**
 * What checks the access token of a DPoP request once its proof passed: a `JwtBearer` or an
 * `IntrospectionBearer` is one, or anything that verifies a token given what the request proved.
 */
export interface DPoPTokenVerifier<TAuth> {
  /**
   * The token's value for `request.auth`, or nothing to refuse it: refused unless its `cnf.jkt`
   * is `possession.jkt`, the thumbprint of the key the proof was signed with.
   */
  verifyToken(
    request: AuthRequest,
    token: string,
    possession: Possession,
  ): Awaitable<TAuth | Nothing>;
  /**
   * Whether the request says what it knows to be false (a `JwtBearer` given `clientCertificates`:
   * a client certificate that cannot be used), as `Authenticator#distrusts`: the `DPoPBearer`
   * over it then refuses the request wherever it stands in an operation's `auth`.
   */
  distrusts?(request: RequestView): boolean | Rejected;
  /** The scopes a value it accepted grants, for the routes' `scopes`. */
  scopesOf(value: TAuth): readonly string[];
  /** The protected resource whose tokens it accepts, if any: challenges then point to it. */
  readonly resource?: ProtectedResource | undefined;
}
