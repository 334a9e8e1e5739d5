import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthFailure } from '../core/authenticate.js';
import {
  answererOf,
  handlersByClass,
  type ErrorClass,
  type HandlerEntry,
} from '../internal/handler-for.js';
import { JSON_TYPE, SERVER_FAULT_BODY } from '../internal/vouch-answer.js';
import { afterAuthChallenges, type Won } from '../internal/won.js';
import { sendVouchError } from './send-vouch-error.js';

export type { ErrorClass } from '../internal/handler-for.js';

/** Decides the response for an error of one class, as it would for an error in a handler. */
export type ExceptionHandler<TError extends Error = Error> = (
  error: TError,
  request: FastifyRequest,
  reply: FastifyReply,
) => unknown;

/** A class and its handler, as given in the plugin's `exceptionHandlers` option. */
export type ExceptionHandlerEntry = HandlerEntry<ExceptionHandler<never>>;

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

/**
 * The failure of a request whose hook threw, kept on the request by the plugin: the challenges
 * and headers of its 401.
 */
export const kFailure = Symbol('vouch.failure');
/** What authenticated a request, kept on the request by the plugin. */
export const kWinner = Symbol('vouch.winner');

/**
 * Builds the API's error handler: a registered handler for the error's class (the most specific
 * wins) decides; vouch's own errors answer with their status, except those that are a server
 * fault (a misused `authOf`); other client errors keep Fastify's answer; anything else is a
 * logged 500 that reveals nothing.
 */
export function createErrorHandler(entries: Iterable<ExceptionHandlerEntry>) {
  const handlers = handlersByClass(entries);

  return function vouchErrorHandler(
    this: unknown,
    error: FastifyError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): unknown {
    const answerer = answererOf(handlers, error, (outage) => {
      request.log.warn({ err: outage }, 'credential store unavailable');
    });
    if (answerer !== undefined && 'handler' in answerer) {
      return (answerer.handler as ExceptionHandler)(error, request, reply);
    }
    if (answerer !== undefined) {
      const kept = request as FastifyRequest & {
        [kFailure]?: AuthFailure | null;
        [kWinner]?: Won | null;
      };
      const failure = kept[kFailure] ?? undefined;
      const challenges =
        failure?.challenges ?? afterAuthChallenges(error, kept[kWinner] ?? undefined);
      return sendVouchError(reply, answerer.vouch, challenges, failure?.headers);
    }
    const status = (error as { statusCode?: unknown }).statusCode;
    // Fastify's own client errors (validation, body too large, …) keep their usual answer.
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).type(JSON_TYPE).send(SERVER_FAULT_BODY);
  };
}
