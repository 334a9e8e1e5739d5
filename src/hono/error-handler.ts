import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { StoreUnavailableError, VouchError } from '../core/errors.js';
import { handlerFor, type ErrorClass } from '../internal/handler-for.js';
import { challengesOf } from './require-auth.js';
import { vouchResponse } from './vouch-response.js';

/** What `app.onError` answers an error of one class with, whether a hook or a handler threw it. */
export type ExceptionHandler<TError extends Error = Error> = (
  error: TError,
  c: Context,
) => Response | Promise<Response>;

/** An error class (abstract or not) and the handler for it, for {@link vouchErrorHandler}. */
export type ExceptionHandlerEntry = readonly [ErrorClass, ExceptionHandler<never>];

/**
 * One entry of `exceptionHandlers`, with `error` typed as the class given.
 *
 * @example exceptionHandler(InvalidToken, (error, c) => c.json({ detail: error.message }, 401))
 */
export const exceptionHandler = <TError extends Error>(
  errorClass: ErrorClass<TError>,
  handler: ExceptionHandler<TError>,
): ExceptionHandlerEntry => [errorClass, handler];

/** Options of {@link vouchErrorHandler}. */
export interface VouchErrorHandlerOptions {
  /** Handlers deciding the response for errors of given classes (the most specific wins). */
  readonly exceptionHandlers?: Iterable<ExceptionHandlerEntry>;
  /** Where server faults and store outages are logged (default `console.error`). */
  readonly log?: (message: string, error: Error) => void;
}

/**
 * An `app.onError` handler answering as vouch's contract says: a registered handler for the
 * error's class decides; vouch's own errors answer with their status, body and challenges (except
 * server faults); Hono's `HTTPException`s keep their answer; anything else is a logged 500 that
 * reveals nothing.
 *
 * @example app.onError(vouchErrorHandler());
 */
export function vouchErrorHandler(options: VouchErrorHandlerOptions = {}): ErrorHandler {
  const handlers = new Map<unknown, ExceptionHandler<never>>();
  for (const [errorClass, handler] of options.exceptionHandlers ?? []) {
    handlers.set(errorClass, handler);
  }
  const log =
    options.log ??
    ((message, error) => {
      console.error(message, error);
    });
  return function vouchOnError(error, c) {
    const handler = handlerFor(handlers, error);
    if (handler !== undefined) return (handler as ExceptionHandler)(error, c);
    if (error instanceof VouchError && (error.statusCode < 500 || error.statusCode === 503)) {
      if (error instanceof StoreUnavailableError) log('vouch: credential store unavailable', error);
      return vouchResponse(error, challengesOf(c));
    }
    if (error instanceof HTTPException) return error.getResponse();
    log('vouch: request failed', error);
    return new Response('{"detail":"Internal Server Error"}', {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  };
}
