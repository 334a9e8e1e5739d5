import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { VouchError } from '../core/errors.js';
import {
  answererOf,
  handlersByClass,
  type ErrorClass,
  type HandlerEntry,
} from '../internal/handler-for.js';
import { JSON_TYPE, SERVER_FAULT_BODY, vouchAnswer } from '../internal/vouch-answer.js';
import { afterAuthChallenges } from '../internal/won.js';
import { HookError } from './hook-error.js';
import { stateOf } from './request-state.js';
import type { Vouch } from './vouch.js';

/**
 * What vouch's exception filter answers an error of one class with, as an exception filter's
 * `catch` would: the error, and the host to reach the request and response through.
 */
export type ExceptionHandler<TError extends Error = Error> = (
  error: TError,
  host: ArgumentsHost,
) => unknown;

/** An error class (abstract or not) and its handler, for `VouchModule.forRoot`. */
export type ExceptionHandlerEntry = HandlerEntry<ExceptionHandler<never>>;

/**
 * One entry of `exceptionHandlers`, with `error` typed as the class given.
 *
 * @example exceptionHandler(InvalidToken, (error, host) => host.switchToHttp().getResponse().status(401).json({ detail: error.message }))
 */
export function exceptionHandler<TError extends Error>(
  errorClass: ErrorClass<TError>,
  handler: ExceptionHandler<TError>,
): ExceptionHandlerEntry {
  return [errorClass, handler];
}

/**
 * The exception filter `VouchModule` registers globally, answering what the contract says of
 * what vouch knows: vouch's own errors (with their status, `{ "detail": … }` and challenges, a
 * hook's `AuthenticationError` or a handler's step-up `InsufficientScopeError` alike), errors of
 * the classes given in `exceptionHandlers` (by their handler), and anything else an
 * authenticate hook threw (a logged 500 that reveals nothing). Nest tries global filters from the
 * last registered to the first: those of `app.useGlobalFilters()`, and `APP_FILTER` providers
 * of modules imported after `VouchModule`, come before it.
 */
export function vouchExceptionFilter(
  vouch: Vouch,
  host: HttpAdapterHost,
  entries: Iterable<ExceptionHandlerEntry>,
): ExceptionFilter {
  const handlers = handlersByClass(entries);
  const onOutage = (error: Error) => {
    vouch.logOutage(error);
  };
  // Its classes are the application's: a filter class of its own for each module.
  class VouchExceptionFilter implements ExceptionFilter {
    catch(error: unknown, context: ArgumentsHost): unknown {
      const answerer = answererOf(handlers, error, onOutage);
      if (answerer !== undefined && 'handler' in answerer) {
        return (answerer.handler as ExceptionHandler)(error as Error, context);
      }
      const adapter = host.httpAdapter;
      const request = context.getArgByIndex<object>(0);
      const response = context.getArgByIndex<unknown>(1);
      const { status, headers, body } =
        answerer === undefined
          ? { status: 500, headers: {}, body: SERVER_FAULT_BODY }
          : vouchAnswer(
              answerer.vouch,
              challengesOf(request, answerer.vouch),
              stateOf(request)?.refusalHeaders,
            );
      if (answerer === undefined) {
        vouch.log(
          'vouch: request failed',
          error instanceof Error ? error : new Error(String(error)),
        );
      }
      for (const [name, value] of Object.entries(headers)) {
        adapter.setHeader(response, name, value as string);
      }
      adapter.setHeader(response, 'content-type', JSON_TYPE);
      return adapter.reply(response, body, status);
    }
  }
  Catch(VouchError, HookError, ...(handlers.keys() as Iterable<ErrorClass>))(VouchExceptionFilter);
  return new VouchExceptionFilter();
}

/**
 * The challenges of an error: those of the authenticators tried on a request whose hook threw,
 * else, for a step-up a handler threw, those naming every scope needed.
 */
function challengesOf(request: object, error: unknown): readonly string[] {
  const state = stateOf(request);
  if (state === undefined) return [];
  return state.challenges.length > 0 ? state.challenges : afterAuthChallenges(error, state.won);
}
