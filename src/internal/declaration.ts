import { resolveAuth, type Requirement } from '../core/auth-spec.js';
import type { AuthenticateOptions } from '../core/authenticate.js';
import { requirePrintable } from '../core/configuration-checks.js';
import { csrfAppliesToSome } from '../core/csrf-applies.js';
import { ConfigurationError } from '../core/errors.js';
import type { OperationAuth } from '../core/operation-auth.js';
import { checkScopes } from '../core/scopes.js';
// A type only: an app that never builds a protection bundles none of vouch/csrf.
import type { CsrfProtection } from '../csrf/csrf-protection.js';

/** Options of an adapter's `requireAuth`. */
export interface RequireAuthOptions {
  /** Realm named in `WWW-Authenticate` challenges (default `api`). */
  readonly realm?: string;
  /**
   * CSRF protection for cookie-based credentials on unsafe methods: what `createCsrfVerifier`
   * of `vouch/csrf` returns (one, shared by every route), or `false` to turn it off. Required
   * when `auth` names a cookie-based authenticator.
   */
  readonly csrf?: CsrfProtection | false;
  /**
   * Scopes the credential must grant (see `Authenticator#scopesOf`); one that is accepted
   * without them answers 403 `insufficient_scope`.
   */
  readonly scopes?: readonly string[];
}

/** What one route declares, as its adapter read it: checked by {@link declare}. */
export interface Declared {
  readonly realm?: string;
  /** A {@link CsrfProtection}, `false` (off), or nothing given. */
  readonly csrf?: unknown;
  readonly scopes?: unknown;
}

/** Where a declaration stands: what its checks depend on, and what their errors name. */
export interface DeclarationSite {
  /** Named in configuration errors: `requireAuth()`, `GET /pets`. */
  readonly where: string;
  /** The route's methods; none where any may come (a middleware). */
  readonly methods?: readonly string[];
  /** What to give when CSRF protection is missing, as the error says it. */
  readonly csrfOption: string;
}

/** An adapter's `requireAuth`: a middleware, which any method may reach. */
const REQUIRE_AUTH: DeclarationSite = {
  where: 'requireAuth()',
  csrfOption: 'csrf: createCsrfVerifier({ secret, trustedOrigins }) of vouch/csrf',
};

/** One route's declaration as every adapter enforces it, resolved once. */
export interface Declaration {
  readonly requirements: readonly Requirement[] | null;
  readonly engine: AuthenticateOptions;
  /** The CSRF protection, where it can apply: it finishes a check deferred to the form body. */
  readonly protection: CsrfProtection | undefined;
  /** The requirements whose answers are the caller's own (`Cache-Control: private`). */
  readonly privateRequirements: ReadonlySet<Requirement>;
}

/**
 * Resolves and checks one declaration: `auth`, its realm, CSRF protection and scopes. Throws a
 * {@link ConfigurationError} naming `site.where` for what cannot work: cookie credentials on a
 * route that may take an unsafe method without CSRF protection, scopes without authentication.
 */
export function declare(
  auth: unknown,
  declared: Declared,
  site: DeclarationSite = REQUIRE_AUTH,
): Declaration {
  const { where } = site;
  const realm = declared.realm ?? 'api';
  requirePrintable(realm, 'realm');
  const requirements = resolveAuth(auth, where);
  const csrf = protectionOf(declared.csrf, where);
  const csrfApplies = requirements !== null && csrfAppliesToSome(requirements, site.methods);
  if (csrfApplies && csrf === undefined) {
    throw new ConfigurationError(
      `${where}: cookie-based authentication needs CSRF protection; give ${site.csrfOption} (or csrf: false)`,
    );
  }
  const scopes = declared.scopes === undefined ? undefined : checkScopes(declared.scopes, where);
  if (scopes !== undefined && requirements === null) {
    throw new ConfigurationError(`${where}: scopes need authentication; this route has none`);
  }
  const protection = csrfApplies && csrf !== false ? csrf : undefined;
  return {
    requirements,
    engine: { realm, csrf: protection?.verify, scopes },
    protection,
    privateRequirements: new Set(
      requirements?.filter((r) => r.some((member) => member.privateResponses)),
    ),
  };
}

function protectionOf(csrf: unknown, where: string): CsrfProtection | false | undefined {
  if (csrf === undefined || csrf === false || isProtection(csrf)) return csrf;
  throw new ConfigurationError(
    `${where}: csrf takes a protection, createCsrfVerifier({ secret, trustedOrigins }) of vouch/csrf (build one and give it to every requireAuth), or false`,
  );
}

function isProtection(value: unknown): value is CsrfProtection {
  const given = value as Partial<Record<keyof CsrfProtection, unknown>> | null;
  return typeof given?.verify === 'function' && typeof given.verifyForm === 'function';
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
