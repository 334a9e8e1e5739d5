import type { Awaitable } from 'vouch';

/**
 * Applies `map` to an awaitable value: at once to a value, once settled to anything with a `then`
 * method, as vouch awaits a hook's result. A lookup answered from memory so stays synchronous.
 *
 * @example mapAwaitable(store.findToken(digest, now), (live) => live?.scopes);
 */
export function mapAwaitable<T, U>(value: Awaitable<T>, map: (value: T) => U): Awaitable<U> {
  return isPromiseLike(value) ? value.then(map) : map(value);
}

// vouch decides what to await by the same test, which it does not export.
function isPromiseLike<T>(value: Awaitable<T>): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
