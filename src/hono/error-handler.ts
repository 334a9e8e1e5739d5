import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import {
  answererOf,
  errorHandling,
  type ErrorClass,
  type ErrorHandlerOptions,
  type HandlerEntry,
} from '../internal/handler-for.js';
import { JSON_TYPE, SERVER_FAULT_BODY } from '../internal/vouch-answer.js';
import { challengesOf, refusalHeadersOf } from './require-auth.js';
import { sendVouchError } from './send-vouch-error.js';

/** What `app.onError` answers an error of one class with, whether a hook or a handler threw it. */
export type ExceptionHandler<TError extends Error = Error> = (
  error: TError,
  c: Context,
) => Response | Promise<Response>;

/** An error class (abstract or not) and the handler for it, for {@link vouchErrorHandler}. */
export type ExceptionHandlerEntry = HandlerEntry<ExceptionHandler<never>>;

/**
 * One entry of `exceptionHandlers`, with `error` typed as the class given.
 *
 * @example exceptionHandler(InvalidToken, (error, c) => c.json({ detail: error.message }, 401))
 */
export const exceptionHandler = <TError extends Error>(
  errorClass: ErrorClass<TError>,
  handler: ExceptionHandler<TError>,
): ExceptionHandlerEntry => [errorClass, handler];

/** Options of {@link vouchErrorHandler}: `exceptionHandlers` and `log`. */
export type VouchErrorHandlerOptions = ErrorHandlerOptions<ExceptionHandlerEntry>;

/**
 * An `app.onError` handler answering as vouch's contract says: a registered handler for the
 * error's class decides; vouch's own errors answer with their status, body and challenges (except
 * server faults); Hono's `HTTPException`s keep their answer; anything else is a logged 500 that
 * reveals nothing.
 *
 * @example app.onError(vouchErrorHandler());
 */
export function vouchErrorHandler(options: VouchErrorHandlerOptions = {}): ErrorHandler {
  const { handlers, log, onOutage } = errorHandling<ExceptionHandler<never>>(options);
  return function vouchOnError(error, c) {
    const answerer = answererOf(handlers, error, onOutage);
    if (answerer !== undefined && 'handler' in answerer) {
      return (answerer.handler as ExceptionHandler)(error, c);
    }
    if (answerer !== undefined) {
      return sendVouchError(answerer.vouch, challengesOf(c, error), refusalHeadersOf(c));
    }
    if (error instanceof HTTPException) return error.getResponse();
    log('vouch: request failed', error);
    return new Response(SERVER_FAULT_BODY, {
      status: 500,
      headers: { 'content-type': JSON_TYPE },
    });
  };
}
