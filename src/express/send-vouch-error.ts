import type { Response } from 'express';
import type { VouchError } from '../core/errors.js';
import { vouchAnswer } from '../internal/vouch-answer.js';

/**
 * Answers one of vouch's errors: its status, `{ "detail": … }` as JSON, one `WWW-Authenticate`
 * line per challenge on a 401 (Node writes each value of a list as its own line), and
 * `Retry-After` on a 503.
 */
export function sendVouchError(
  res: Response,
  error: VouchError,
  challenges: readonly string[],
): void {
  const answer = vouchAnswer(error, challenges);
  res.status(answer.status);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  if (answer.challenges.length > 0) res.setHeader('www-authenticate', [...answer.challenges]);
  if (answer.retryAfter !== undefined) res.setHeader('retry-after', answer.retryAfter);
  res.end(answer.body);
}
