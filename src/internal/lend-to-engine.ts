import type { VouchError } from '../core/errors.js';
import { answeredByVouch } from './handler-for.js';

// The errors given a property by lendToEngine, so that a later throw of the same object may
// replace it while a property of the application's own is left alone.
const lent = new WeakSet<object>();

/**
 * Gives one of vouch's own errors that a hook threw, and that vouch answers (a client error or a
 * store outage), the property `key` an engine's default error handler reads (`getResponse` on
 * Hono, `headers` on Express), so it answers correctly where the application registered no error
 * handler of vouch's. The object stays the one the hook threw, for the application's own error
 * handlers; the property is hidden from enumeration, never replaces one the error has of its own,
 * and is made again at each throw (one error object thrown by two requests at once answers with
 * the later's challenges). Returns the error.
 */
export function lendToEngine<TError>(
  error: TError,
  key: string,
  value: (error: VouchError) => unknown,
): TError {
  if (answeredByVouch(error) && (lent.has(error) || !(key in error))) {
    // A frozen error stays as it is: Reflect.defineProperty says false rather than throwing.
    Reflect.defineProperty(error, key, { value: value(error), configurable: true, writable: true });
    lent.add(error);
  }
  return error;
}
