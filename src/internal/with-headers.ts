import { lendToEngine } from './lend-to-engine.js';
import { vouchAnswer } from './vouch-answer.js';

/**
 * What a hook threw, made answerable by an engine's default error handler that reads an error's
 * `statusCode` and `headers` (Express's final handler, in an HTML page of its own; Fastify's, as
 * `{ statusCode, code, error, message }`). Vouch's own errors already carry `statusCode`; they
 * get `headers` with their `WWW-Authenticate` challenges (on a 401, with the `headers` the
 * refusals named beside them) and `Retry-After`, so an app without vouch's error handler still
 * answers a hook's `AuthenticationError` with 401 and its challenges. The application's error
 * handlers still receive the original error.
 */
export function withHeaders<TError>(
  error: TError,
  challenges: readonly string[],
  headers?: Readonly<Record<string, string>>,
): TError {
  return lendToEngine(error, 'headers', (vouch) => ({
    ...vouchAnswer(vouch, challenges, headers).headers,
  }));
}
