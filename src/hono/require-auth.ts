import type { Context, MiddlewareHandler, Next } from 'hono';
import type { RouterRoute } from 'hono/types';
import { matchedRoutes, routePath } from 'hono/route';
import type { AuthOf, AuthSpec, Requirement } from '../core/auth-spec.js';
import { evaluate } from '../core/authenticate.js';
import { CsrfError, type VouchError } from '../core/errors.js';
import { checkWinner } from '../internal/check-winner.js';
import { declare, type Declaration, type RequireAuthOptions } from '../internal/declaration.js';
import { asError } from '../internal/handler-for.js';
import { answersPrivately, formCsrfPasses } from '../internal/settle.js';
import { requestView } from './request-view.js';
import { sendVouchError } from './send-vouch-error.js';
import { withResponse } from './with-response.js';

export type { RequireAuthOptions } from '../internal/declaration.js';

/** The Hono environment a {@link requireAuth} middleware gives its handlers: `c.get('auth')`. */
export interface AuthEnv<TSpec> {
  Variables: { auth: AuthOf<TSpec> };
}

const declarations = new WeakMap<object, Declaration>();
// Requests whose authentication is decided: the other requireAuth of the chain step aside.
const decided = new WeakSet<Context>();
const challenges = new WeakMap<Context, readonly string[]>();

// The requirement that authenticated each request, for authOf.
const winners = new WeakMap<Context, Requirement>();

/** Challenges of the authenticators tried on a request whose hook threw, for the error handler. */
export function challengesOf(c: Context): readonly string[] {
  return challenges.get(c) ?? [];
}

/**
 * What `auth` authenticated the request with (`c.get('auth')`), typed from the authenticators,
 * in a handler behind `requireAuth(auth)`. Throws when the request was authenticated by
 * something else: a typed value is never a guess.
 *
 * @example const user = authOf(c, bearer);
 */
export function authOf<const TSpec extends AuthSpec>(c: Context, auth: TSpec): AuthOf<TSpec> {
  checkWinner(winners.get(c) ?? null, auth, () => `${c.req.method} ${routePath(c)}`);
  return c.get('auth') as AuthOf<TSpec>;
}

/**
 * Middleware requiring `auth` (an authenticator, a function, `allOf(...)`, a list tried in order,
 * or `null` to disable) on a route, a sub-app or the whole app. The most specific wins: of the
 * `requireAuth` middlewares Hono matched for a request, the last (the route's, then the sub-app's,
 * then the app's) decides, unless a handler registered for a method comes before it (that
 * handler may answer, so it keeps the earlier declaration: fail closed). Authentication runs
 * once, where the first of them stands. The winner's value is `c.get('auth')`; refusals answer
 * 401, 400, 403 or 503 here, and what a hook throws goes to `app.onError` (see
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
  const middleware: MiddlewareHandler = async function vouchRequireAuth(c, next) {
    if (decided.has(c)) {
      await next();
      return;
    }
    decided.add(c);
    const deciding = lastBeforeHandler(matchedRoutes(c), c.req.routeIndex + 1);
    return run(deciding ?? declaration, c, next);
  };
  declarations.set(middleware, declaration);
  return middleware;
}

/**
 * The declaration deciding a request whose matched routes are `routes`: where the first
 * requireAuth middleware stands, the last of those that follow it before any handler registered
 * for a method (`get`, `post`, …), which may answer; itself when none follows. The search ends
 * there, so a later, weaker declaration never covers an earlier handler. `undefined` without any,
 * or when such a handler comes first: it answers with no declaration in force.
 */
export function decidingDeclaration(routes: readonly RouterRoute[]): Declaration | undefined {
  const first = routes.findIndex(
    (route) => declarationOf(route) !== undefined || route.method !== 'ALL',
  );
  const declaration = first === -1 ? undefined : declarationOf(routes[first] as RouterRoute);
  return declaration && (lastBeforeHandler(routes, first + 1) ?? declaration);
}

/** Of the requireAuth middlewares among `routes` from `from` on, the last before a handler. */
function lastBeforeHandler(routes: readonly RouterRoute[], from: number): Declaration | undefined {
  let found: Declaration | undefined;
  for (let i = from; i < routes.length; i++) {
    const route = routes[i] as RouterRoute;
    const declaration = declarationOf(route);
    if (declaration !== undefined) found = declaration;
    // 'ALL': registered by use() (or all()); anything else is a route's own handler.
    else if (route.method !== 'ALL') break;
  }
  return found;
}

function declarationOf(route: RouterRoute): Declaration | undefined {
  const handler = route.handler as object & { __COMPOSED_HANDLER?: object };
  // A sub-app with its own onError has its handlers wrapped; Hono keeps the original here.
  return declarations.get(handler) ?? declarations.get(handler.__COMPOSED_HANDLER ?? handler);
}

async function run(
  declaration: Declaration,
  c: Context,
  next: Next,
): Promise<Response | undefined> {
  const { requirements } = declaration;
  if (requirements === null) {
    await next();
    return undefined;
  }
  const view = requestView(c);
  const result = await evaluate(requirements, view, declaration.engine);
  if (!result.ok) {
    if (!result.thrown) return sendVouchError(result.error as VouchError, result.challenges);
    challenges.set(c, result.challenges);
    // Hono hands only Errors to onError; anything else thrown is wrapped so it still gets there.
    throw withResponse(asError(result.error), result.challenges);
  }
  if (
    result.csrfDeferred !== undefined &&
    !(await formCsrfPasses(declaration, result.csrfDeferred, view, () => formBody(c)))
  ) {
    return sendVouchError(new CsrfError(), []);
  }
  c.set('auth', result.value);
  winners.set(c, result.requirement);
  await next();
  // After the handler, since a Response it returns replaces what was set before.
  if (answersPrivately(declaration, result.requirement, () => c.res.headers.has('cache-control'))) {
    c.header('cache-control', 'private');
  }
  return undefined;
}

// A form post may carry its CSRF token in the body; Hono keeps the parsed form for the handler.
// `all`: a field sent twice must arrive as a list, which is ambiguous, as it does on the other
// engines; without it Hono keeps the last. Only the form is cached, not this reading of it, so
// the handler's own parseBody() still reads it with its own options.
function formBody(c: Context): Promise<unknown> {
  return c.req.parseBody({ all: true }).catch(() => undefined);
}
