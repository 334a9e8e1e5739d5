import type { Requirement } from '../core/auth-spec.js';
import { evaluate, type AuthResult } from '../core/authenticate.js';
import { CsrfError, StoreUnavailableError, type VouchError } from '../core/errors.js';
import { isPromiseLike } from '../core/outcome.js';
import { answeredByVouch, asError } from '../internal/handler-for.js';
import { answersPrivately, formCsrfPasses } from '../internal/settle.js';
import { thrownByHook } from './hook-error.js';
import { openState, setAuth, type RequestState } from './request-state.js';
import { requestView } from './request-view.js';
import type { RouteEntry } from './route-table.js';
import type { Vouch } from './vouch.js';
import { vouchException, type HeaderWriter } from './vouch-exception.js';

/**
 * Authenticates a request to the route of `entry`, which requires authentication: `undefined`
 * once it is (the winner's value is the request's `auth`), else what to hand to Nest's exception
 * layer: an `HttpException` for vouch's own refusal, whose challenges are set on `response`, or
 * what a hook threw (one of vouch's errors as an `HttpException` too, when vouch's exception
 * filter is off). Synchronous when every verdict is.
 */
export function authenticateRoute(
  vouch: Vouch,
  entry: RouteEntry,
  request: object,
  response: unknown,
  writer: HeaderWriter,
): unknown {
  const { declaration } = entry;
  const state = openState(request, entry);
  const result = evaluate(
    declaration.requirements as readonly Requirement[],
    requestView(request),
    declaration.engine,
  );
  return isPromiseLike(result)
    ? result.then((settled) => conclude(vouch, settled, state, request, response, writer))
    : conclude(vouch, result, state, request, response, writer);
}

function conclude(
  vouch: Vouch,
  result: AuthResult,
  state: RequestState,
  request: object,
  response: unknown,
  writer: HeaderWriter,
): unknown {
  if (result.ok) {
    const { declaration } = state.entry;
    state.auth = result.value;
    state.won = { requirement: result.requirement, engine: declaration.engine };
    state.csrfDeferred = result.csrfDeferred;
    setAuth(request, result.value);
    // Before the handler, which may set its own.
    if (answersPrivately(declaration, result.requirement, response, hasCacheControl)) {
      writer.setHeader(response, 'cache-control', 'private');
    }
    return undefined;
  }
  const { error, challenges, headers } = result;
  if (!result.thrown) {
    return vouchException(error as VouchError, challenges, response, writer, headers);
  }
  if (!vouch.filtered && answeredByVouch(error)) {
    // Nest's own filter answers HttpExceptions only: vouch's errors become theirs, as refusals do.
    if (error instanceof StoreUnavailableError) vouch.logOutage(error);
    return vouchException(error, challenges, response, writer, headers);
  }
  state.challenges = result.challenges;
  state.refusalHeaders = result.headers;
  // Never a bare value: Express reads next('route') as a command, not an error.
  return thrownByHook(asError(result.error));
}

/**
 * Finishes a CSRF check deferred to the form body, once the platform parsed it: `undefined` when
 * it passes (or none was deferred), else the 403 to hand to Nest's exception layer.
 */
export function finishCsrf(
  state: RequestState,
  request: object,
  response: unknown,
  writer: HeaderWriter,
): unknown {
  const binding = state.csrfDeferred;
  if (binding === undefined) return undefined;
  // Both platforms parsed the body before guards run: the check is synchronous.
  const passes = formCsrfPasses(
    state.entry.declaration,
    binding,
    requestView(request),
    request,
    bodyOf,
  ) as boolean;
  return passes ? undefined : vouchException(new CsrfError(), [], response, writer);
}

const bodyOf = (request: object): unknown => (request as { body?: unknown }).body;
// Express's response and Fastify's reply both have `hasHeader`.
const hasCacheControl = (response: unknown): boolean =>
  (response as { hasHeader(name: string): boolean }).hasHeader('cache-control');
