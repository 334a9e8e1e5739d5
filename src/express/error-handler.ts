import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import * as engineFree from '../internal/handler-for.js';
import { JSON_TYPE, SERVER_FAULT_BODY } from '../internal/vouch-answer.js';
import { challengesOf, refusalHeadersOf } from './require-auth.js';
import { sendVouchError } from './send-vouch-error.js';

/** What {@link vouchErrorHandler} answers an error of one class with. */
export type ExceptionHandler<TError extends Error = Error> = (
  error: TError,
  req: Request,
  res: Response,
) => unknown;

/** An error class (abstract or not) and the handler for it, for {@link vouchErrorHandler}. */
export type ExceptionHandlerEntry = engineFree.HandlerEntry<ExceptionHandler<never>>;

/**
 * One entry of `exceptionHandlers`, with `error` typed as the class given.
 *
 * @example exceptionHandler(InvalidToken, (error, req, res) => res.status(401).json({ detail: error.message }))
 */
export function exceptionHandler<TError extends Error>(
  errorClass: engineFree.ErrorClass<TError>,
  handler: ExceptionHandler<TError>,
): ExceptionHandlerEntry {
  return [errorClass, handler];
}

/** Options of {@link vouchErrorHandler}: `exceptionHandlers` and `log`. */
export type VouchErrorHandlerOptions = engineFree.ErrorHandlerOptions<ExceptionHandlerEntry>;

/**
 * Error middleware (register it last) answering as vouch's contract says: a registered handler
 * for the error's class decides; vouch's own errors answer with their status, body and
 * challenges (except server faults); anything else is a logged 500 that reveals nothing. Once a
 * response has started, the error goes on to Express's own handler.
 *
 * @example app.use(vouchErrorHandler());
 */
export function vouchErrorHandler(options: VouchErrorHandlerOptions = {}): ErrorRequestHandler {
  const { handlers, log, onOutage } = engineFree.errorHandling<ExceptionHandler<never>>(options);
  return function vouchOnError(error: unknown, req: Request, res: Response, next: NextFunction) {
    if (res.headersSent) {
      next(error);
      return undefined;
    }
    const answerer = engineFree.answererOf(handlers, error, onOutage);
    if (answerer !== undefined && 'handler' in answerer) {
      return (answerer.handler as ExceptionHandler)(error as Error, req, res);
    }
    if (answerer !== undefined) {
      sendVouchError(res, answerer.vouch, challengesOf(req, error), refusalHeadersOf(req));
      return undefined;
    }
    log('vouch: request failed', error instanceof Error ? error : new Error(String(error)));
    res.writeHead(500, { 'content-type': JSON_TYPE }).end(SERVER_FAULT_BODY);
    return undefined;
  };
}
