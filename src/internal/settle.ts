// What every adapter does once a request is authenticated; the adapter supplies only how its
// engine reads the parsed body and whether the answer already has a header, as functions of what
// it passes (module-level functions: nothing is allocated per request).
import type { Requirement } from '../core/auth-spec.js';
import { isPromiseLike } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import type { Declaration } from './declaration.js';

/**
 * Finishes a CSRF check the evaluator deferred to the form body (a form post may carry its
 * token there instead of in the header), bound to `binding`: whether the token in the body the
 * engine parsed (`formBody(request)`) passes. Without a protection to check it with, it never
 * does.
 */
export function formCsrfPasses<TRequest>(
  declaration: Declaration,
  binding: string,
  view: RequestView,
  request: TRequest,
  formBody: (request: TRequest) => unknown,
): boolean | Promise<boolean> {
  const passes = (body: unknown): boolean =>
    declaration.protection?.verifyForm(view, body, binding) === true;
  const body = formBody(request);
  return isPromiseLike(body) ? Promise.resolve(body).then(passes) : passes(body);
}

/**
 * Whether the answer to a request `requirement` won gets `Cache-Control: private`: it does when
 * the body is the caller's own (an API key, a session authenticated it), unless the answer
 * already carries a `Cache-Control` of its own (the handler's, another middleware's), which is
 * never replaced. `hasCacheControl(answer)` reads the answer the engine's way, only for such a
 * winner.
 */
export function answersPrivately<TAnswer>(
  declaration: Declaration,
  requirement: Requirement,
  answer: TAnswer,
  hasCacheControl: (answer: TAnswer) => boolean,
): boolean {
  return declaration.privateRequirements.has(requirement) && !hasCacheControl(answer);
}
