import type { Awaitable, Nothing } from '../core/outcome.js';
import type { AuthRequest } from '../core/request.js';
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
  /** The scopes a value it accepted grants, for the routes' `scopes`. */
  scopesOf(value: TAuth): readonly string[];
  /** The protected resource whose tokens it accepts, if any: challenges then point to it. */
  readonly resource?: ProtectedResource | undefined;
}
