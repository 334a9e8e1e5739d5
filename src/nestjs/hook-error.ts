// What vouch's authenticate hooks threw, told apart from what handlers throw: vouch's exception
// filter answers the first (contract §5: 500 with nothing about it) and leaves the second to the
// application's filters and Nest's own.

import { HttpException } from '@nestjs/common';

const thrown = new WeakSet<object>();

/**
 * Marks an error as thrown by an authenticate hook, and returns it. Nest's own `HttpException`s
 * are left to Nest, which answers them.
 */
export function thrownByHook<TError extends Error>(error: TError): TError {
  if (!(error instanceof HttpException)) thrown.add(error);
  return error;
}

/**
 * Stands for every error an authenticate hook threw in a filter's `@Catch()`, which Nest checks
 * with `instanceof`.
 */
export abstract class HookError {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && thrown.has(value);
  }
}
