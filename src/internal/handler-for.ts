import { StoreUnavailableError, VouchError } from '../core/errors.js';

/** An error class, abstract or not, whatever its constructor takes. */
export type ErrorClass<TError extends Error = Error> = abstract new (...args: never[]) => TError;

/**
 * The handler registered for an error's class or, failing that, for the nearest class it
 * inherits from: the most specific registration wins. `undefined` for non-objects and when
 * nothing is registered along the prototype chain.
 */
export function handlerFor<THandler>(
  handlers: ReadonlyMap<unknown, THandler>,
  error: unknown,
): THandler | undefined {
  if (handlers.size === 0 || typeof error !== 'object' || error === null) return undefined;
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null;) {
    const handler = handlers.get((proto as { constructor: unknown }).constructor);
    if (handler !== undefined) return handler;
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

/** An error class (abstract or not) and an adapter's handler for it. */
export type HandlerEntry<THandler> = readonly [ErrorClass, THandler];

/** Options of an adapter's `vouchErrorHandler`. */
export interface ErrorHandlerOptions<TEntry> {
  /** Handlers deciding the response for errors of given classes (the most specific wins). */
  readonly exceptionHandlers?: Iterable<TEntry>;
  /** Where server faults and store outages are logged (default `console.error`). */
  readonly log?: (message: string, error: Error) => void;
}

/** The handlers by class, from an adapter's `exceptionHandlers` entries. */
export function handlersByClass<THandler>(
  entries: Iterable<HandlerEntry<THandler>>,
): Map<unknown, THandler> {
  const handlers = new Map<unknown, THandler>();
  for (const [errorClass, handler] of entries) handlers.set(errorClass, handler);
  return handlers;
}

/**
 * What an adapter's error handler without a logger of its engine's needs: the handlers by class,
 * the log (default `console.error`), and what logs a store outage.
 */
export function errorHandling<THandler>(options: ErrorHandlerOptions<HandlerEntry<THandler>>) {
  const handlers = handlersByClass(options.exceptionHandlers ?? []);
  const log =
    options.log ??
    ((message: string, error: Error) => {
      console.error(message, error);
    });
  const onOutage = (error: Error) => {
    log('vouch: credential store unavailable', error);
  };
  return { handlers, log, onOutage };
}

/**
 * Who answers an error in an adapter's error handler: the handler registered for its class, or
 * vouch for its own client errors and store outages (calling `onOutage` for those), or,
 * `undefined`, the adapter (a logged 500 unless the engine knows the error).
 */
export function answererOf<THandler>(
  handlers: ReadonlyMap<unknown, THandler>,
  error: unknown,
  onOutage: (error: StoreUnavailableError) => void,
): { readonly handler: THandler } | { readonly vouch: VouchError } | undefined {
  const handler = handlerFor(handlers, error);
  if (handler !== undefined) return { handler };
  if (answeredByVouch(error)) {
    if (error instanceof StoreUnavailableError) onOutage(error);
    return { vouch: error };
  }
  return undefined;
}

/**
 * Whether vouch answers this error itself, by its status and `{ detail }`: one of its own client
 * errors or a store outage; its other errors (a misused `authOf`) are server faults.
 */
export function answeredByVouch(error: unknown): error is VouchError {
  return error instanceof VouchError && (error.statusCode < 500 || error.statusCode === 503);
}

/** What a hook threw, as an Error: engines that pass only Errors on get a non-Error wrapped. */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error
    ? thrown
    : new Error('an authenticate hook threw a non-Error value', { cause: thrown });
}
