import type { Context, MiddlewareHandler, Next } from 'hono';
import type { RouterRoute } from 'hono/types';
import { matchedRoutes, routePath } from 'hono/route';
import type { AuthOf, AuthSpec } from '../core/auth-spec.js';
import {
  evaluate,
  type AuthFailure,
  type AuthResult,
  type AuthSuccess,
} from '../core/authenticate.js';
import { CsrfError, type VouchError } from '../core/errors.js';
import { isPromiseLike } from '../core/outcome.js';
import { checkWinner } from '../internal/check-winner.js';
import { afterAuthChallenges, type Won } from '../internal/won.js';
import { declare, type Declaration, type RequireAuthOptions } from '../internal/declaration.js';
import { asError } from '../internal/handler-for.js';
import { PASS, Search, STOP, type Decision, type Step } from '../internal/precedence.js';
import { answersPrivately, formCsrfPasses } from '../internal/settle.js';
import { requestView, type HonoRequestView } from './request-view.js';
import { sendVouchError } from './send-vouch-error.js';
import { withResponse } from './with-response.js';

export type { RequireAuthOptions } from '../internal/declaration.js';

/** The Hono environment a {@link requireAuth} middleware gives its handlers: `c.get('auth')`. */
export interface AuthEnv<TSpec> {
  Variables: { auth: AuthOf<TSpec> };
}

const declarations = new WeakMap<object, Declaration>();

// What vouch keeps of a request, on its context under keys no one else holds (as the Fastify
// adapter does on the request): a WeakMap keyed by each request's context would cost an
// insertion per request, and the collector's work after it.
const COVERED_UNTIL = Symbol('vouch covered until');
const FAILURE = Symbol('vouch failure');
const WON = Symbol('vouch won');

interface VouchContext extends Context {
  // Of a request's matched handlers, the index of the last requireAuth its decision covers:
  // those up to it step aside.
  [COVERED_UNTIL]?: number;
  // The failure of a request whose hook threw, for the error handler.
  [FAILURE]?: AuthFailure;
  // What authenticated the request, for authOf and a handler's step-up.
  [WON]?: Won;
}

const vouchContext = (c: Context) => c as VouchContext;

/** What a middleware returns: a response, or nothing once the handlers after it ran. */
type Handled = ReturnType<MiddlewareHandler>;

/**
 * The challenges for the error handler: those of the authenticators tried on a request whose
 * hook threw, else those of an `error` a handler threw after authentication (a step-up).
 */
export function challengesOf(c: Context, error?: unknown): readonly string[] {
  const vouch = vouchContext(c);
  return vouch[FAILURE]?.challenges ?? afterAuthChallenges(error, vouch[WON]);
}

/** The headers the refusals named beside the challenges, on a request whose hook threw. */
export function refusalHeadersOf(c: Context): Readonly<Record<string, string>> | undefined {
  return vouchContext(c)[FAILURE]?.headers;
}

/**
 * What `auth` authenticated the request with (`c.get('auth')`), typed from the authenticators,
 * in a handler behind `requireAuth(auth)`. Throws when the request was authenticated by
 * something else: a typed value is never a guess.
 *
 * @example const user = authOf(c, bearer);
 */
export function authOf<const TSpec extends AuthSpec>(c: Context, auth: TSpec): AuthOf<TSpec> {
  checkWinner(
    vouchContext(c)[WON]?.requirement ?? null,
    auth,
    () => `${c.req.method} ${routePath(c)}`,
  );
  return c.get('auth') as AuthOf<TSpec>;
}

/**
 * Middleware requiring `auth` (an authenticator, a function, `allOf(...)`, a list tried in order,
 * or `null` to disable) on a route, a sub-app or the whole app. The most specific wins: from
 * where the first `requireAuth` Hono matched for a request stands, vouch passes over middleware
 * of `use()` or `all()` that takes `next`, and takes the last `requireAuth` before a handler
 * that may answer (one registered for a method, or one without `next`): the route's, then the
 * sub-app's, then the app's. Authentication runs there, once, so the middleware passed over
 * sees the result; a `requireAuth` beyond that point decides again, so a declaration never
 * covers a handler that runs before it (fail closed). The winner's value is `c.get('auth')`;
 * refusals answer 401, 400, 403 or 503 here, and what a hook throws goes to `app.onError` (see
 * `vouchErrorHandler`); without one, Hono's own handler still answers vouch's errors as
 * `vouchErrorHandler` would.
 *
 * @example
 * app.get('/bearer', requireAuth(bearer), (c) => c.json({ token: c.get('auth') }));
 */
export function requireAuth<const TSpec extends AuthSpec>(
  auth: TSpec,
  options: RequireAuthOptions = {},
): MiddlewareHandler<AuthEnv<TSpec>> {
  const declaration = declare(auth, options);
  // Not async: the promise it returns is run's, or next()'s when it steps aside.
  const middleware: MiddlewareHandler = function vouchRequireAuth(c, next) {
    const index = c.req.routeIndex;
    if (index <= (vouchContext(c)[COVERED_UNTIL] ?? -1)) return next();
    const routes = matchedRoutes(c);
    const here = routes[index];
    const decision = here && handlerOf(here) === middleware ? decideFrom(routes, index) : undefined;
    // A requireAuth past the one deciding decides again, as it would without an entry.
    if (decision !== undefined && decision.deciding > index) {
      vouchContext(c)[COVERED_UNTIL] = decision.deciding;
    }
    const deciding = decision && declarationOf(routes[decision.deciding] as RouterRoute);
    return run(deciding ?? declaration, c, next);
  };
  declarations.set(middleware, declaration);
  return middleware;
}

/**
 * The declaration deciding a request whose matched routes are `routes`, found from the first
 * requireAuth among them; `undefined` without one, or where a handler that may answer comes
 * first.
 */
export function decidingDeclaration(routes: readonly RouterRoute[]): Declaration | undefined {
  const decision = decideFrom(routes, 0);
  return decision && declarationOf(routes[decision.deciding] as RouterRoute);
}

/** The decision over `routes` from `from` on. */
function decideFrom(routes: readonly RouterRoute[], from: number): Decision<number> | undefined {
  const search = new Search<number>();
  for (let index = from; index < routes.length; index++) {
    if (search.step(stepOf(routes[index] as RouterRoute, index))) break;
  }
  return search.decision;
}

/**
 * What a matched route is to the search, as its index: a requireAuth declares; a handler of
 * `use()` or `all()` (method `ALL`) that takes `next` hands on; a handler for a method, or one
 * without `next`, may answer.
 */
function stepOf(route: RouterRoute, index: number): Step<number> {
  const handler = handlerOf(route);
  if (declarations.has(handler)) return index;
  return route.method === 'ALL' && handler.length >= 2 ? PASS : STOP;
}

/** The declaration of a matched route, where its handler is a requireAuth. */
export function declarationOf(route: RouterRoute): Declaration | undefined {
  return declarations.get(handlerOf(route));
}

/** The handler as registered: a sub-app with its own onError wraps it, and Hono keeps it there. */
function handlerOf(route: RouterRoute): (...args: never[]) => unknown {
  const handler = route.handler as RouterRoute['handler'] & { __COMPOSED_HANDLER?: unknown };
  return (handler.__COMPOSED_HANDLER ?? handler) as (...args: never[]) => unknown;
}

/**
 * Authenticates the request under `declaration`, then goes on or answers. Synchronous verdicts
 * stay off the microtask queue, and where nothing is left to do after the handler, the promise
 * is next()'s own: past the checks, an accepted request goes on as through an empty middleware.
 */
function run(declaration: Declaration, c: Context, next: Next): Handled {
  const { requirements } = declaration;
  if (requirements === null) return next();
  const view = requestView(c);
  const result = evaluate(requirements, view, declaration.engine);
  return isPromiseLike(result)
    ? result.then((settled) => conclude(settled, declaration, view, c, next))
    : conclude(result, declaration, view, c, next);
}

/** Goes on with the winner, or answers the refusal. */
function conclude(
  result: AuthResult,
  declaration: Declaration,
  view: HonoRequestView,
  c: Context,
  next: Next,
): Handled {
  if (!result.ok) return refuse(result, c);
  if (result.csrfDeferred === undefined) return proceed(result, declaration, c, next);
  return proceedAfterFormCsrf(result, result.csrfDeferred, declaration, view, c, next);
}

/** The answer to a refusal; a hook's error goes to `onError`, as any middleware's would. */
function refuse(result: AuthFailure, c: Context): Promise<Response> {
  if (!result.thrown) {
    return Promise.resolve(
      sendVouchError(result.error as VouchError, result.challenges, result.headers),
    );
  }
  vouchContext(c)[FAILURE] = result;
  // Hono hands only Errors to onError; anything else thrown is wrapped so it still gets there.
  return Promise.reject(withResponse(asError(result.error), result.challenges, result.headers));
}

/** Goes on once the CSRF token in the form body passes; a form post may carry it there. */
async function proceedAfterFormCsrf(
  result: AuthSuccess,
  binding: string,
  declaration: Declaration,
  view: HonoRequestView,
  c: Context,
  next: Next,
): Handled {
  if (!(await formCsrfPasses(declaration, binding, view, c, formBody))) {
    return sendVouchError(new CsrfError(), []);
  }
  return proceed(result, declaration, c, next);
}

/** Gives the handler the winner's value and goes on. */
function proceed(
  result: AuthSuccess,
  declaration: Declaration,
  c: Context,
  next: Next,
): Promise<void> {
  c.set('auth', result.value);
  vouchContext(c)[WON] = { requirement: result.requirement, engine: declaration.engine };
  // Only an answer that may be the caller's own is looked at after the handler.
  if (!declaration.privateRequirements.has(result.requirement)) return next();
  return next().then(() => {
    // After the handler, since a Response it returns replaces what was set before.
    if (answersPrivately(declaration, result.requirement, c, hasCacheControl)) {
      c.header('cache-control', 'private');
    }
  });
}

function hasCacheControl(c: Context): boolean {
  return c.res.headers.has('cache-control');
}

// A form post may carry its CSRF token in the body; Hono keeps the parsed form for the handler.
// `all`: a field sent twice must arrive as a list, which is ambiguous, as it does on the other
// engines; without it Hono keeps the last. Only the form is cached, not this reading of it, so
// the handler's own parseBody() still reads it with its own options.
function formBody(c: Context): Promise<unknown> {
  return c.req.parseBody({ all: true }).catch(() => undefined);
}
