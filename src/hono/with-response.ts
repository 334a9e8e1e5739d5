import { errorHandling } from '../internal/handler-for.js';
import { lendToEngine } from '../internal/lend-to-engine.js';
import { sendVouchError } from './send-vouch-error.js';

const { onOutage } = errorHandling({});

/**
 * What a hook threw, made answerable by Hono's default error handler: it answers an error with
 * a `getResponse()` (as `HTTPException` has) with that response, and anything else with a logged
 * 500. Vouch's own errors get one that answers exactly as `vouchErrorHandler()` does (a store
 * outage logged as it logs one), so an app without `app.onError` still answers a hook's
 * `AuthenticationError` with 401 and its challenges; an `onError` of the app's still receives the
 * original error.
 */
export function withResponse(
  error: Error,
  challenges: readonly string[],
  headers?: Readonly<Record<string, string>>,
): Error {
  return lendToEngine(error, 'getResponse', (vouch) => () => {
    if (vouch.statusCode === 503) onOutage(vouch);
    return sendVouchError(vouch, challenges, headers);
  });
}
