import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError, VouchError } from '../core/errors.js';
import { handlerFor } from '../internal/handler-for.js';

/** An error class, abstract or not, whatever its constructor takes. */
export type ErrorClass<TError extends Error = Error> = abstract new (...args: never[]) => TError;

/** Decides the response for an error of one class, as it would for an error in a handler. */
export type ExceptionHandler<TError extends Error = Error> = (
  error: TError,
  request: FastifyRequest,
  reply: FastifyReply,
) => unknown;

/** A class and its handler, as given in the plugin's `exceptionHandlers` option. */
export type ExceptionHandlerEntry = readonly [ErrorClass, ExceptionHandler<never>];

/**
 * Pairs an error class with its handler, keeping the handler's `error` typed.
 *
 * @example
 * exceptionHandler(InvalidToken, (error, request, reply) => reply.code(401).send({ detail: error.message }))
 */
export function exceptionHandler<TError extends Error>(
  errorClass: ErrorClass<TError>,
  handler: ExceptionHandler<TError>,
): ExceptionHandlerEntry {
  return [errorClass, handler];
}

/** Challenges recorded for the 401 of a request, kept on the request by the plugin. */
export const kChallenges = Symbol('vouch.challenges');

/** Sends one of vouch's errors: status, `{ detail }`, and the headers its status calls for. */
export function sendVouchError(
  reply: FastifyReply,
  error: VouchError,
  challenges: readonly string[],
): FastifyReply {
  reply.code(error.statusCode);
  if (error.statusCode === 401 && challenges.length > 0) {
    reply.header('www-authenticate', challenges.length === 1 ? challenges[0] : [...challenges]);
  }
  // What failed inside the store is for the log, never for the client.
  const unavailable = error instanceof StoreUnavailableError;
  if (unavailable) reply.header('retry-after', String(error.retryAfter));
  const detail = unavailable ? 'Service Unavailable' : error.message;
  return reply.type('application/json; charset=utf-8').send({ detail });
}

/**
 * Builds the API's error handler: a registered handler for the error's class (the most specific
 * wins) decides; vouch's own errors answer with their status, except those that are a server
 * fault (a misused `authOf`); other client errors keep Fastify's answer; anything else is a
 * logged 500 that reveals nothing.
 */
export function createErrorHandler(entries: Iterable<ExceptionHandlerEntry>) {
  const handlers = new Map<unknown, ExceptionHandler<never>>();
  for (const [errorClass, handler] of entries) handlers.set(errorClass, handler);

  return function vouchErrorHandler(
    this: unknown,
    error: FastifyError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): unknown {
    const handler = handlerFor(handlers, error);
    if (handler !== undefined) return (handler as ExceptionHandler)(error, request, reply);
    if (error instanceof VouchError && (error.statusCode < 500 || error.statusCode === 503)) {
      if (error instanceof StoreUnavailableError) {
        request.log.warn({ err: error }, 'credential store unavailable');
      }
      const challenges = (request as FastifyRequest & { [kChallenges]?: readonly string[] })[
        kChallenges
      ];
      return sendVouchError(reply, error, challenges ?? []);
    }
    const status = (error as { statusCode?: unknown }).statusCode;
    // Fastify's own client errors (validation, body too large, …) keep their usual answer.
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .type('application/json; charset=utf-8')
      .send({ detail: 'Internal Server Error' });
  };
}
