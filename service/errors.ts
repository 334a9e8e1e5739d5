/**
 * The service's own errors (the library's are `VouchError`s). Each carries a stable `code`,
 * listed in `docs/errors.md` and never reused; callers and tests branch on it, never on text.
 */
export class ServiceError extends Error {
  /** Stable machine-readable identifier, `VOUCH_SERVICE_…`. */
  readonly code: string;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** An environment variable holds something the service cannot start with. */
export class EnvironmentError extends ServiceError {
  /** The variable, named first in the message. */
  readonly variable: string;

  constructor(variable: string, message: string, options?: ErrorOptions) {
    super('VOUCH_SERVICE_ENVIRONMENT', `${variable}: ${message}`, options);
    this.variable = variable;
  }
}

/** The database's schema cannot be brought up to date: it is newer, or the steps are wrong. */
export class MigrationError extends ServiceError {
  constructor(message: string) {
    super('VOUCH_SERVICE_MIGRATION', message);
  }
}

/**
 * A command that works on the service's existing data (the CLI) was pointed at a SQLite path
 * holding no database, or something else than the service's: it creates and changes nothing.
 */
export class NoDatabaseError extends ServiceError {
  /** The file the command was pointed at. */
  readonly path: string;

  constructor(path: string, problem: 'missing' | 'not vouch', why = '') {
    super(
      'VOUCH_SERVICE_NO_DATABASE',
      problem === 'missing'
        ? `no database at ${path}; nothing was created (the service creates it when it first ` +
            'starts): check DATABASE_URL'
        : `${path} is not a vouch database (${why}); it was left as it was: check DATABASE_URL`,
    );
    this.path = path;
  }
}

/** A CLI command cannot be carried out; reported as one line with exit status 1. */
export class CliError extends ServiceError {
  constructor(message: string) {
    super('VOUCH_SERVICE_CLI', message);
  }
}

/** The username is already taken. */
export class UsernameTakenError extends ServiceError {
  constructor(username: string) {
    super('VOUCH_SERVICE_USERNAME_TAKEN', `user ${JSON.stringify(username)} already exists`);
  }
}

/** No record has that id or digest. */
export class NotFoundError extends ServiceError {
  constructor(what: string) {
    super('VOUCH_SERVICE_NOT_FOUND', `${what} not found`);
  }
}

/** A request the service turns away for now: answered `statusCode` with `Retry-After`. */
export class RetryLaterError extends ServiceError {
  readonly statusCode: 429 | 503;
  /** Whole seconds before trying again, at least 1. */
  readonly retryAfter: number;

  constructor(code: string, statusCode: 429 | 503, message: string, retryAfter: number) {
    super(code, message);
    this.statusCode = statusCode;
    this.retryAfter = Math.max(1, Math.ceil(retryAfter));
  }
}

/** Too many failed sign-ins from this address, device or for this username (429). */
export class TooManyAttemptsError extends RetryLaterError {
  constructor(retryAfter: number) {
    super('VOUCH_SERVICE_TOO_MANY_ATTEMPTS', 429, 'Too Many Requests', retryAfter);
  }
}

/** Every password check is taken and the queue is full: come back in a second (503). */
export class PasswordChecksBusyError extends RetryLaterError {
  constructor() {
    super('VOUCH_SERVICE_PASSWORD_CHECKS_BUSY', 503, 'Service Unavailable', 1);
  }
}

/**
 * A JSON body the service will not read (400): a key given twice in one object, which
 * `JSON.parse` would silently read as its last value (a form field given twice is refused too),
 * or nesting too deep to be checked for that.
 */
export class JsonBodyError extends ServiceError {
  readonly statusCode = 400;
  /** The key given twice, when that is the reason. */
  readonly key: string | undefined;

  constructor(key: string | undefined) {
    super(
      'VOUCH_SERVICE_JSON_BODY',
      key === undefined
        ? 'body is nested too deeply to be read'
        : `body gives the key ${JSON.stringify(key)} more than once`,
    );
    this.key = key;
  }
}

/** A sign-in route sent parameters in its query string, where a password would be logged (400). */
export class QueryParametersError extends ServiceError {
  readonly statusCode = 400;

  constructor(route: string) {
    super(
      'VOUCH_SERVICE_QUERY_PARAMETERS',
      `${route} takes its parameters in the body, never in the query string`,
    );
  }
}
