import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { isPromiseLike } from '../core/outcome.js';
import { authenticateRoute, finishCsrf } from './authenticate-route.js';
import { openState, setAuth, stateOf, type RequestState } from './request-state.js';
import type { Vouch } from './vouch.js';

/**
 * The guard `VouchModule` puts on every route, after vouch's request hook authenticated the
 * request: it finishes a CSRF check deferred to the form body, which exists only now, and it
 * checks that the hook decided for the route Nest is running. Where it did not (the hook did not
 * run, or the platform handed the request on to another route, as Express does past a version
 * or host filter), it authenticates the request itself, by this route's declaration: late, after
 * the body was read, but never a route without its own authentication (fail closed).
 */
export class VouchGuard implements CanActivate {
  readonly #vouch: Vouch;
  readonly #host: HttpAdapterHost;

  constructor(vouch: Vouch, host: HttpAdapterHost) {
    this.#vouch = vouch;
    this.#host = host;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const entry = this.#vouch.routes.entryFor(context.getClass(), context.getHandler());
    // Not switchToHttp(), which puts three new closures on the context at every call.
    const [request, response] = context.getArgs<[object, unknown]>();
    const adapter = this.#host.httpAdapter;
    const state = stateOf(request);
    if (state?.entry === entry) return pass(finishCsrf(state, request, response, adapter));
    if (entry.declaration.requirements === null) {
      // What another route's declaration authenticated is not this route's.
      if (state !== undefined) {
        openState(request, entry);
        setAuth(request, undefined);
      }
      return true;
    }
    if (state === undefined) this.#vouch.warnLate(entry.where);
    const outcome = authenticateRoute(this.#vouch, entry, request, response, adapter);
    const finish = (refusal: unknown): boolean =>
      pass(refusal ?? finishCsrf(stateOf(request) as RequestState, request, response, adapter));
    return isPromiseLike(outcome) ? Promise.resolve(outcome).then(finish) : finish(outcome);
  }
}

/** Goes on, or throws what refuses the request, for Nest's exception layer. */
function pass(refusal: unknown): true {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a hook may throw anything
  if (refusal !== undefined) throw refusal;
  return true;
}
