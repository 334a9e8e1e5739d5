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
   * outage; on a 401, what the refusals named beside their challenges (`DPoP-Nonce`). Names in
   * lower case; a list is written as one line per value.
   */
  readonly headers: Readonly<Record<string, string | string[]>>;
  /** `{ "detail": … }` as JSON, sent as {@link JSON_TYPE}. */
  readonly body: string;
}

/** The content type of every answer vouch writes. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What answers one of vouch's errors: its status, detail and challenges, and on a 401 the
 * `headers` the refusals named (see `AuthFailure#headers`).
 */
export function vouchAnswer(
  error: VouchError,
  challenges: readonly string[],
  headers?: Readonly<Record<string, string>>,
): VouchAnswer {
  // What failed inside the store is for the log, never for the client.
  const unavailable = error instanceof StoreUnavailableError;
  const challenged =
    error.statusCode === 401 ||
    error instanceof InsufficientScopeError ||
    error instanceof BadRequestError;
  const written: Record<string, string | string[]> =
    headers !== undefined && error.statusCode === 401 ? { ...headers } : {};
  if (challenged && challenges.length > 0) {
    // One line as a string: what every engine, and a test reading the headers, sees as one.
    written['www-authenticate'] =
      challenges.length === 1 ? (challenges[0] as string) : [...challenges];
  }
  if (unavailable) written['retry-after'] = String(error.retryAfter);
  return {
    status: error.statusCode,
    headers: written,
    body: JSON.stringify({ detail: unavailable ? 'Service Unavailable' : error.message }),
  };
}

/** The body of a 500: nothing about what failed, which goes to the log. */
export const SERVER_FAULT_BODY = '{"detail":"Internal Server Error"}';
