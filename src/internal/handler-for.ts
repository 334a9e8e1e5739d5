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
