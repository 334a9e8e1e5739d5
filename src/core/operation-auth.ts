import type { Requirement } from './auth-spec.js';

/**
 * The authentication in force on one operation, as an engine's routing resolved it: what the
 * OpenAPI derivation describes, whatever engine enforces it.
 */
export interface OperationAuth {
  /** Any-of requirements, or `null` when authentication is disabled on the operation. */
  readonly requirements: readonly Requirement[] | null;
  /** Whether CSRF protection applies to cookie credentials on this operation. */
  readonly csrf: boolean;
  /** Scopes the credential must grant, if any. */
  readonly scopes?: readonly string[] | undefined;
  /** The realm its challenges name, when it is not the API's default. */
  readonly realm?: string | undefined;
}
