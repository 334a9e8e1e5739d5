import type { VouchError } from '../core/errors.js';
import { JSON_TYPE, vouchAnswer } from '../internal/vouch-answer.js';

/**
 * The response answering one of vouch's errors, for a handler or middleware to return: its
 * status, `{ "detail": … }` as JSON, one `WWW-Authenticate` line per challenge on a 401 (with the
 * `refusalHeaders` the refusals named), and `Retry-After` on a 503.
 */
export function sendVouchError(
  error: VouchError,
  challenges: readonly string[],
  refusalHeaders?: Readonly<Record<string, string>>,
): Response {
  const answer = vouchAnswer(error, challenges, refusalHeaders);
  const headers = new Headers({ 'content-type': JSON_TYPE });
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const line of typeof value === 'string' ? [value] : value) headers.append(name, line);
  }
  return new Response(answer.body, { status: answer.status, headers });
}
