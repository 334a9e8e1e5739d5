import {
  BadRequestError,
  InsufficientScopeError,
  StoreUnavailableError,
  type VouchError,
} from '../core/errors.js';

/** The parts of the answer to one of vouch's errors, for an adapter to write its own way. */
export interface VouchAnswer {
  readonly status: number;
  /**
   * One `WWW-Authenticate` line per challenge on a 401, a lack of scope or ambiguous credentials
   * (Bearer's `invalid_request`), none otherwise.
   */
  readonly challenges: readonly string[];
  /** `Retry-After` on a 503 for a store outage. */
  readonly retryAfter: string | undefined;
  /** `{ "detail": … }` as JSON, sent as `application/json; charset=utf-8`. */
  readonly body: string;
}

/** What answers one of vouch's errors: its status, detail and challenges. */
export function vouchAnswer(error: VouchError, challenges: readonly string[]): VouchAnswer {
  // What failed inside the store is for the log, never for the client.
  const unavailable = error instanceof StoreUnavailableError;
  return {
    status: error.statusCode,
    challenges:
      error.statusCode === 401 ||
      error instanceof InsufficientScopeError ||
      error instanceof BadRequestError
        ? challenges
        : [],
    retryAfter: unavailable ? String(error.retryAfter) : undefined,
    body: JSON.stringify({ detail: unavailable ? 'Service Unavailable' : error.message }),
  };
}

/** The body of a 500: nothing about what failed, which goes to the log. */
export const SERVER_FAULT_BODY = '{"detail":"Internal Server Error"}';
