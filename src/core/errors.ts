import { isScopeToken } from './scope-token.js';

/**
 * Every error vouch raises carries a stable `code` (listed in `docs/errors.md`, never reused) and
 * the HTTP status it answers with. Tests and callers branch on `code`, never on message text.
 */
export class VouchError extends Error {
  /** Stable machine-readable identifier, `VOUCH_ERR_…`. */
  readonly code: string;
  /** HTTP status this error answers with when it reaches a reply. */
  readonly statusCode: number;

  constructor(code: string, statusCode: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.statusCode = statusCode;
  }
}

/** The constructor of one kind of {@link VouchError}. */
type ErrorKind = new (message?: string, options?: ErrorOptions) => VouchError;

/**
 * The class of one kind of vouch error: its code, its status and the message used when none is
 * given (as Fastify's own errors are made by `createError`).
 */
function errorKind(code: string, statusCode: number, defaultMessage: string): ErrorKind {
  return class extends VouchError {
    constructor(message = defaultMessage, options?: ErrorOptions) {
      super(code, statusCode, message, options);
    }
  };
}

/**
 * No authenticator accepted the request (401). Throw it from a hook to reject with your own
 * `detail`; the reply still carries the route's `WWW-Authenticate` challenges.
 */
export class AuthenticationError extends errorKind(
  'VOUCH_ERR_UNAUTHENTICATED',
  401,
  'Unauthorized',
) {}

/** The caller is known but may not do this (403). */
export class AuthorizationError extends errorKind('VOUCH_ERR_FORBIDDEN', 403, 'Forbidden') {}

/**
 * A credential was accepted but grants fewer scopes than the operation requires, and nothing else
 * accepted with them (403, RFC 6750 §3.1). Bearer challenges name `error="insufficient_scope"`
 * and every scope needed. Throw it from a handler or a hook with the `scopes` a call needs beyond
 * the route's (step-up): vouch's error handlers answer it as they answer the route's own lack of
 * scope, naming the route's scopes and these.
 *
 * @example throw new InsufficientScopeError({ scopes: ['mcp:admin'] });
 */
export class InsufficientScopeError extends VouchError {
  /** The scopes needed beyond the route's own. */
  readonly scopes: readonly string[];

  constructor(
    messageOrOptions?: string | (ErrorOptions & { readonly scopes?: readonly string[] }),
    options?: ErrorOptions & { readonly scopes?: readonly string[] },
  ) {
    const [message, given] =
      typeof messageOrOptions === 'string' || messageOrOptions === undefined
        ? [messageOrOptions ?? 'Forbidden', options]
        : ['Forbidden', messageOrOptions];
    super('VOUCH_ERR_INSUFFICIENT_SCOPE', 403, message, given);
    const scopes: readonly unknown[] = given?.scopes ?? [];
    const bad = scopes.find((scope) => typeof scope !== 'string' || !isScopeToken(scope));
    if (bad !== undefined) {
      throw new TypeError(
        `InsufficientScopeError: ${JSON.stringify(bad)} is not an RFC 6749 scope-token`,
      );
    }
    this.scopes = Object.freeze([...new Set(scopes as string[])]);
  }
}

/** A cookie credential was presented without a valid CSRF proof and nothing else accepted (403). */
export class CsrfError extends errorKind('VOUCH_ERR_CSRF', 403, 'CSRF check Failed') {}

/** Credentials were ambiguous (a repeated `Authorization` line or API-key parameter) (400). */
export class BadRequestError extends errorKind('VOUCH_ERR_BAD_REQUEST', 400, 'Bad Request') {}

/**
 * The credential store could not answer (503). Throw it from a hook when the database or cache
 * is down or too slow; the reply carries `Retry-After`.
 */
export class StoreUnavailableError extends VouchError {
  /** Seconds the client should wait before retrying. */
  readonly retryAfter: number;

  constructor(message = 'Service Unavailable', options?: ErrorOptions & { retryAfter?: number }) {
    super('VOUCH_ERR_STORE_UNAVAILABLE', 503, message, options);
    this.retryAfter = options?.retryAfter ?? 5;
  }
}

/** A declaration is invalid; thrown at start-up, naming the route it concerns. */
export class ConfigurationError extends VouchError {
  constructor(message: string, options?: ErrorOptions) {
    super('VOUCH_ERR_CONFIGURATION', 500, message, options);
  }
}

/** All stable error codes, for documentation and exhaustive tests. */
export const errorCodes = {
  unauthenticated: 'VOUCH_ERR_UNAUTHENTICATED',
  forbidden: 'VOUCH_ERR_FORBIDDEN',
  insufficientScope: 'VOUCH_ERR_INSUFFICIENT_SCOPE',
  csrf: 'VOUCH_ERR_CSRF',
  badRequest: 'VOUCH_ERR_BAD_REQUEST',
  storeUnavailable: 'VOUCH_ERR_STORE_UNAVAILABLE',
  configuration: 'VOUCH_ERR_CONFIGURATION',
} as const;
