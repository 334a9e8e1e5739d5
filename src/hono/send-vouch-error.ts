import type { VouchError } from '../core/errors.js';
import { vouchAnswer } from '../internal/vouch-answer.js';

/**
 * The response answering one of vouch's errors, for a handler or middleware to return: its status, `{ "detail": … }` as JSON, one
 * `WWW-Authenticate` line per challenge on a 401, and `Retry-After` on a 503.
 */
export function sendVouchError(error: VouchError, challenges: readonly string[]): Response {
  const answer = vouchAnswer(error, challenges);
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
  for (const challenge of answer.challenges) headers.append('www-authenticate', challenge);
  if (answer.retryAfter !== undefined) headers.set('retry-after', answer.retryAfter);
  return new Response(answer.body, { status: answer.status, headers });
}
