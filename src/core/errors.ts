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
 * accepted with them (403, RFC 6750 §3.1). Bearer challenges name `error="insufficient_scope"`.
 */
export class InsufficientScopeError extends errorKind(
  'VOUCH_ERR_INSUFFICIENT_SCOPE',
  403,
  'Forbidden',
) {}

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
