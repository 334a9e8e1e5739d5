import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AuthOf, AuthSpec, Requirement } from '../core/auth-spec.js';
import { evaluate } from '../core/authenticate.js';
import { CsrfError, type VouchError } from '../core/errors.js';
import { checkWinner } from '../internal/check-winner.js';
import { declare, type Declaration, type RequireAuthOptions } from '../internal/declaration.js';
import { asError } from '../internal/handler-for.js';
import { answersPrivately, formCsrfPasses } from '../internal/settle.js';
import { withHeaders } from '../internal/with-headers.js';
import { requestView } from './request-view.js';
import { handlersFor, OPAQUE, rootPath, type RouterLike } from './routing.js';
import { sendVouchError } from './send-vouch-error.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- how Express's types are extended
  namespace Express {
    interface Request {
      /** What the `requireAuth` that decided the request authenticated it with. */
      auth?: unknown;
    }
  }
}

export type { RequireAuthOptions } from '../internal/declaration.js';

/** A request's passage through the requireAuth middlewares. */
interface State {
  /** requireAuth middlewares run so far in the root app. */
  seen: number;
  /** How many of the next ones a decision already covered: they step aside. */
  remaining: number;
  /** A requireAuth ran inside a mounted app, where the root's stack no longer says what runs. */
  desynced: boolean;
  challenges: readonly string[];
}

const declarations = new WeakMap<object, Declaration>();
const states = new WeakMap<Request, State>();

/** Challenges of the authenticators tried on a request whose hook threw, for the error handler. */
export function challengesOf(req: Request): readonly string[] {
  return states.get(req)?.challenges ?? [];
}

// The requirement that authenticated each request, for authOf.
const winners = new WeakMap<Request, Requirement>();

/**
 * What `auth` authenticated the request with (`req.auth`), typed from the authenticators, in a
 * handler behind `requireAuth(auth)`. Throws when the request was authenticated by something
 * else: a typed value is never a guess.
 *
 * @example const user = authOf(req, bearer);
 */
export function authOf<const TSpec extends AuthSpec>(req: Request, auth: TSpec): AuthOf<TSpec> {
  checkWinner(winners.get(req) ?? null, auth, () => `${req.method} ${routeOf(req)}`);
  return req.auth as AuthOf<TSpec>;
}

/** The path of the route serving `req`, as declared: its URL may carry a credential. */
function routeOf(req: Request): string {
  const route = (req as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? req.baseUrl + route.path : '(no route)';
}

/**
 * Middleware requiring `auth` (an authenticator, a function, `allOf(...)`, a list tried in order,
 * or `null` to disable) on a route, a `Router` or the whole app. The most specific wins: where
 * the first `requireAuth` of a request runs, vouch reads from the routers' stacks what Express
 * will run next and takes the last `requireAuth` before anything else that may answer (a route's
 * handler, other middleware, a mounted app, a param callback): the route's, then the router's,
 * then the app's. A `requireAuth` beyond that point decides again, so a declaration never covers
 * a handler that runs before it (fail closed). The winner's value is `req.auth`; refusals answer
 * 401, 400, 403 or 503 here, and what a hook throws goes to `next(err)` (see `vouchErrorHandler`;
 * without it, Express's final handler answers vouch's errors with their status and headers).
 *
 * @example
 * app.get('/bearer', requireAuth(bearer), (req, res) => res.json({ token: req.auth }));
 */
export function requireAuth<const TSpec extends AuthSpec>(
  auth: TSpec,
  options: RequireAuthOptions = {},
): RequestHandler {
  const declaration = declare(auth, options);
  const middleware: RequestHandler = function vouchRequireAuth(req, res, next) {
    let state = states.get(req);
    if (state === undefined) {
      state = { seen: 0, remaining: 0, desynced: false, challenges: [] };
      states.set(req, state);
    }
    const ordinal = state.seen;
    if ((req.app as { parent?: unknown }).parent === undefined) state.seen++;
    else state.desynced = true;
    if (state.remaining > 0) {
      state.remaining--;
      next();
      return undefined;
    }
    const plan = state.desynced ? undefined : mostSpecific(req, ordinal, middleware);
    state.remaining = (plan?.covered ?? 1) - 1;
    return run(plan?.declaration ?? declaration, req, res, next, state);
  };
  declarations.set(middleware, declaration);
  return middleware;
}

/**
 * The declaration deciding a request at the requireAuth running as the `ordinal`-th of the root
 * app: of the requireAuth middlewares Express runs from there on, the last before any other
 * handler, with how many they are. `undefined` where the stacks do not show this middleware there.
 */
function mostSpecific(
  req: Request,
  ordinal: number,
  self: RequestHandler,
): { declaration: Declaration; covered: number } | undefined {
  const path = rootPath(req.originalUrl);
  if (path === undefined) return undefined;
  const router = (req.app as unknown as { router: RouterLike }).router;
  return deciding(handlersFor(router, path, req.method), ordinal, self);
}

/** Whether `handle` is a {@link requireAuth} middleware. */
export function isRequireAuth(handle: unknown): boolean {
  return typeof handle === 'function' && declarations.has(handle);
}

/**
 * Of `handles` (what Express runs for a request, in order), the requireAuth declaration deciding
 * at the `ordinal`-th requireAuth: the last of the requireAuth middlewares from there on before
 * any other handler, with how many they are. `undefined` without one, or where the `ordinal`-th
 * is not `self` when `self` is given.
 */
export function deciding(
  handles: Iterable<unknown>,
  ordinal: number,
  self?: RequestHandler,
): { declaration: Declaration; covered: number } | undefined {
  let index = 0;
  let found: Declaration | undefined;
  let covered = 0;
  for (const handle of handles) {
    const declaration = handle === OPAQUE ? undefined : declarations.get(handle as object);
    if (found === undefined) {
      if (declaration === undefined || index++ < ordinal) continue;
      if (self !== undefined && handle !== self) return undefined;
    } else if (declaration === undefined) break;
    found = declaration;
    covered++;
  }
  return found === undefined ? undefined : { declaration: found, covered };
}

async function run(
  declaration: Declaration,
  req: Request,
  res: Response,
  next: NextFunction,
  state: State,
): Promise<void> {
  const { requirements } = declaration;
  if (requirements === null) {
    next();
    return;
  }
  const view = requestView(req);
  const result = await evaluate(requirements, view, declaration.engine);
  if (!result.ok) {
    if (!result.thrown) {
      sendVouchError(res, result.error as VouchError, result.challenges);
      return;
    }
    state.challenges = result.challenges;
    // Never a bare value: next('route') or next('router') would skip what follows.
    next(withHeaders(asError(result.error), result.challenges));
    return;
  }
  // A form post may carry its CSRF token in the body, which a body parser put in `req.body`.
  if (
    result.csrfDeferred !== undefined &&
    !(await formCsrfPasses(declaration, result.csrfDeferred, view, () => req.body as unknown))
  ) {
    sendVouchError(res, new CsrfError(), []);
    return;
  }
  req.auth = result.value;
  winners.set(req, result.requirement);
  // Before the handler, which may set its own.
  if (answersPrivately(declaration, result.requirement, () => res.hasHeader('cache-control'))) {
    res.setHeader('cache-control', 'private');
  }
  next();
}
