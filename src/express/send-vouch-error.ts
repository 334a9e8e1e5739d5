import type { Response } from 'express';
import type { VouchError } from '../core/errors.js';
import { JSON_TYPE, vouchAnswer } from '../internal/vouch-answer.js';

/**
 * Answers one of vouch's errors: its status, `{ "detail": … }` as JSON, one `WWW-Authenticate`
 * line per challenge on a 401 (Node writes each value of a list as its own line) with the
 * `headers` the refusals named, and `Retry-After` on a 503.
 */
export function sendVouchError(
  res: Response,
  error: VouchError,
  challenges: readonly string[],
  refusalHeaders?: Readonly<Record<string, string>>,
): void {
  const { status, headers, body } = vouchAnswer(error, challenges, refusalHeaders);
  res.writeHead(status, { ...headers, 'content-type': JSON_TYPE }).end(body);
}
