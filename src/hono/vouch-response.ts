import { StoreUnavailableError, type VouchError } from '../core/errors.js';

/**
 * The answer to one of vouch's errors: its status, `{ "detail": … }` as JSON, one
 * `WWW-Authenticate` line per challenge on a 401, and `Retry-After` on a 503.
 */
export function vouchResponse(error: VouchError, challenges: readonly string[]): Response {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
  if (error.statusCode === 401) {
    for (const challenge of challenges) headers.append('www-authenticate', challenge);
  }
  // What failed inside the store is for the log, never for the client.
  const unavailable = error instanceof StoreUnavailableError;
  if (unavailable) headers.set('retry-after', String(error.retryAfter));
  const detail = unavailable ? 'Service Unavailable' : error.message;
  return new Response(JSON.stringify({ detail }), { status: error.statusCode, headers });
}
