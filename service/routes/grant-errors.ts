// The answers of POST /api/token in the form of RFC 6749 §5.2 when the request asks for the
// OAuth2 password grant (`grant_type` given), whoever makes them; the plain form keeps { detail }.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from 'vouch';
import { JsonBodyError, RetryLaterError, TooManyAttemptsError } from '../errors.js';

/** An RFC 6749 §5.2 error body. */
export function grantError(error: string, description?: string) {
  return { error, ...(description === undefined ? {} : { error_description: description }) };
}

/**
 * Whether a token request asks for the OAuth2 grant: a `grant_type` other than empty, one given
 * twice included (read as a list, or refused by the JSON body parser, which names it).
 */
export function asksForGrant(body: unknown, error?: unknown): boolean {
  if (error instanceof JsonBodyError && error.key === 'grant_type') return true;
  if (typeof body !== 'object' || body === null) return false;
  const grantType = (body as Record<string, unknown>).grant_type;
  return grantType !== undefined && grantType !== '';
}

// RFC 6749 §5.2 has no code for "not now". `temporarily_unavailable` is OAuth's own word for it
// (§4.1.2.1: "temporary overloading"), which OAuth clients already show or retry on; Retry-After
// says when. `invalid_grant`, which Keycloak answers to a locked-out account, would tell the
// client the password is wrong, and `invalid_request` that retrying the same request is useless.
const TRY_LATER = 'temporarily_unavailable';
const LOCKED_OUT =
  'Too many failed sign-ins from this address or for this username: try again after Retry-After seconds';
const BUSY =
  'Too many password checks under way, or the database does not answer: try again after Retry-After seconds';

/**
 * The token route's error handler: in the grant form, a 429 or 503 answers
 * `temporarily_unavailable` with `Retry-After`, and a bad request (invalid or unreadable body,
 * query parameters) `invalid_request`, as §5.2 says. Anything else, and everything in the plain
 * form, goes on to the service's handler (`{ detail }`).
 */
export function grantErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (!asksForGrant(request.body, error)) throw error;
  if (error instanceof RetryLaterError || error instanceof StoreUnavailableError) {
    void reply
      .code(error.statusCode)
      .header('retry-after', String(error.retryAfter))
      .send(grantError(TRY_LATER, error instanceof TooManyAttemptsError ? LOCKED_OUT : BUSY));
    return;
  }
  if (error.statusCode !== 400) throw error;
  void reply.code(400).send(grantError('invalid_request', error.message));
}
