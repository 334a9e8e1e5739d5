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
   * `WWW-Authenticate`, a line a challenge (a list of several), on a 401, a lack of scope or
   * ambiguous credentials (Bearer's `invalid_request`); `Retry-After` on a 503 for a store
   * outage. Names in lower case; a list is written as one line per value.
   */
  readonly headers: Readonly<Record<string, string | string[]>>;
  /** `{ "detail": … }` as JSON, sent as {@link JSON_TYPE}. */
  readonly body: string;
}

/** The content type of every answer vouch writes. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** What answers one of vouch's errors: its status, detail and challenges. */
export function vouchAnswer(error: VouchError, challenges: readonly string[]): VouchAnswer {
  // What failed inside the store is for the log, never for the client.
  const unavailable = error instanceof StoreUnavailableError;
  const challenged =
    error.statusCode === 401 ||
    error instanceof InsufficientScopeError ||
    error instanceof BadRequestError;
  const headers: Record<string, string | string[]> = {};
  if (challenged && challenges.length > 0) {
    // One line as a string: what every engine, and a test reading the headers, sees as one.
    headers['www-authenticate'] =
      challenges.length === 1 ? (challenges[0] as string) : [...challenges];
  }
  if (unavailable) headers['retry-after'] = String(error.retryAfter);
  return {
    status: error.statusCode,
    headers,
    body: JSON.stringify({ detail: unavailable ? 'Service Unavailable' : error.message }),
  };
}

/** The body of a 500: nothing about what failed, which goes to the log. */
export const SERVER_FAULT_BODY = '{"detail":"Internal Server Error"}';
