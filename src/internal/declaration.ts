import { resolveAuth, type AuthSpec, type Requirement } from '../core/auth-spec.js';
import type { AuthenticateOptions } from '../core/authenticate.js';
import { ConfigurationError } from '../core/errors.js';
import { checkScopes } from '../core/scopes.js';
import {
  createCsrfVerifier,
  type CsrfOptions,
  type CsrfProtection,
} from '../csrf/csrf-protection.js';
import type { OperationAuth } from '../core/operation-auth.js';
import { requirePrintable } from '../core/configuration-checks.js';

/** Options of an adapter's `requireAuth`. */
export interface RequireAuthOptions {
  /** Realm named in `WWW-Authenticate` challenges (default `api`). */
  readonly realm?: string;
  /**
   * CSRF protection for cookie-based credentials on unsafe methods: its secret and trusted
   * origins, or `false` to turn it off. Required when `auth` names a cookie-based authenticator.
   */
  readonly csrf?: CsrfOptions | false;
  /**
   * Scopes the credential must grant (see `Authenticator#scopesOf`); one that is accepted
   * without them answers 403 `insufficient_scope`.
   */
  readonly scopes?: readonly string[];
}

/** One `requireAuth(...)` as declared, resolved once. */
export interface Declaration {
  readonly requirements: readonly Requirement[] | null;
  readonly engine: AuthenticateOptions;
  readonly protection: CsrfProtection | undefined;
  readonly privateRequirements: ReadonlySet<Requirement>;
}

/** Resolves and checks what one `requireAuth(auth, options)` of an engine's adapter declares. */
export function declare(auth: AuthSpec, options: RequireAuthOptions): Declaration {
  const realm = options.realm ?? 'api';
  requirePrintable(realm, 'realm');
  const requirements = resolveAuth(auth, 'requireAuth()');
  const cookieBased = requirements?.some((r) => r.some((member) => member.cookieBased)) ?? false;
  if (cookieBased && options.csrf === undefined) {
    throw new ConfigurationError(
      'requireAuth(): cookie-based authentication needs CSRF protection; give csrf: { secret, trustedOrigins } (or csrf: false)',
    );
  }
  const scopes =
    options.scopes === undefined ? undefined : checkScopes(options.scopes, 'requireAuth()');
  if (scopes !== undefined && requirements === null) {
    throw new ConfigurationError('requireAuth(): scopes need authentication; not with null');
  }
  const protection =
    options.csrf === undefined || options.csrf === false
      ? undefined
      : createCsrfVerifier(options.csrf);
  return {
    requirements,
    engine: { realm, csrf: protection?.verify, scopes },
    protection,
    privateRequirements: new Set(
      requirements?.filter((r) => r.some((member) => member.privateResponses)),
    ),
  };
}

/** What a declaration puts in force on an operation, for its OpenAPI description. */
export function operationAuth(declaration: Declaration): OperationAuth {
  return {
    requirements: declaration.requirements,
    csrf: declaration.protection !== undefined,
    realm: declaration.engine.realm,
    scopes: declaration.engine.scopes,
  };
}
