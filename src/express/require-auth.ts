import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AuthOf, AuthSpec } from '../core/auth-spec.js';
import { evaluate } from '../core/authenticate.js';
import { CsrfError, type VouchError } from '../core/errors.js';
import { checkWinner } from '../internal/check-winner.js';
import { afterAuthChallenges, type Won } from '../internal/won.js';
import { declare, type Declaration, type RequireAuthOptions } from '../internal/declaration.js';
import { asError } from '../internal/handler-for.js';
import { answersPrivately, formCsrfPasses } from '../internal/settle.js';
import { PASS, Search, STOP, type Decision, type Step } from '../internal/precedence.js';
import { withHeaders } from '../internal/with-headers.js';
import { requestView } from './request-view.js';
import {
  firstRouteHandler,
  holding,
  rootPath,
  routedAsSent,
  routeHandlers,
  type Handle,
  type Route,
  type RouterLike,
  type Visitor,
  visitHandlers,
} from '../internal/express-routing.js';
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
  /** A requireAuth ran inside a mounted app, where the root's stack no longer says what runs. */
  desynced: boolean;
  /** The requireAuth the last decision covers, in the order they run: they step aside. */
  covered: readonly unknown[];
  /** How many of them ran. */
  ran: number;
  /**
   * The method the decision foresaw them for, when other middleware stands between them and may
   * have sent the request elsewhere; `undefined` when they follow one another in a route.
   */
  foreseenFor: string | undefined;
  /** Routes whose first handler, a requireAuth, ran: `req.route` may still name them later. */
  opened: Route[];
  challenges: readonly string[];
  /** The headers the refusals named beside the challenges, on a request whose hook threw. */
  refusalHeaders: Readonly<Record<string, string>> | undefined;
  /** What authenticated the request, for authOf and a handler's step-up. */
  won: Won | undefined;
}

const declarations = new WeakMap<object, Declaration>();
const states = new WeakMap<Request, State>();

/**
 * The challenges for the error handler: those of the authenticators tried on a request whose
 * hook threw, else those of an `error` a handler threw after authentication (a step-up).
 */
export function challengesOf(req: Request, error?: unknown): readonly string[] {
  const state = states.get(req);
  if (state === undefined) return [];
  return state.challenges.length > 0 ? state.challenges : afterAuthChallenges(error, state.won);
}

/** The headers the refusals named beside the challenges, on a request whose hook threw. */
export function refusalHeadersOf(req: Request): Readonly<Record<string, string>> | undefined {
  return states.get(req)?.refusalHeaders;
}

/**
 * What `auth` authenticated the request with (`req.auth`), typed from the authenticators, in a
 * handler behind `requireAuth(auth)`. Throws when the request was authenticated by something
 * else: a typed value is never a guess.
 *
 * @example const user = authOf(req, bearer);
 */
export function authOf<const TSpec extends AuthSpec>(req: Request, auth: TSpec): AuthOf<TSpec> {
  checkWinner(
    states.get(req)?.won?.requirement ?? null,
    auth,
    () => `${req.method} ${routeOf(req)}`,
  );
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
 * will run next, passes over middleware of `use()` that can hand on (it takes `next`), and takes
 * the last `requireAuth` before anything that may answer or that vouch cannot see through (a
 * route's handler, a function without `next`, a mounted app, a param callback): the route's,
 * then the router's, then the app's. Authentication runs there, once, so the middleware passed
 * over sees `req.auth`; a `requireAuth` beyond that point decides again, so a declaration never
 * covers a handler that runs before it (fail closed). Refusals answer 401, 400, 403 or 503
 * here, and what a hook throws goes to `next(err)` (see `vouchErrorHandler`; without it,
 * Express's final handler answers vouch's errors with their status and headers).
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
      state = {
        seen: 0,
        desynced: false,
        covered: [],
        ran: 0,
        foreseenFor: undefined,
        opened: [],
        challenges: [],
        refusalHeaders: undefined,
        won: undefined,
      };
      states.set(req, state);
    }
    const ordinal = state.seen;
    if ((req.app as { parent?: unknown }).parent === undefined) state.seen++;
    else state.desynced = true;
    const route = openedRoute(req, middleware, state);
    if (stepsAside(req, middleware, state)) {
      next();
      return undefined;
    }
    // Where it opens the route, the route's handler ends the search: its stack says it all.
    const inRoute = route && decideInRoute(route, req.method);
    const decision = inRoute ?? mostSpecific(req, ordinal, middleware, state);
    state.covered = decision?.covered ?? [];
    state.ran = 1;
    state.foreseenFor = inRoute === undefined ? req.method : undefined;
    const deciding = decision && declarationOf(decision.deciding);
    return run(deciding ?? declaration, req, res, next, state);
  };
  declarations.set(middleware, declaration);
  return middleware;
}

/** Whether the last decision covers `self`, running where it foresaw it: then it steps aside. */
function stepsAside(req: Request, self: RequestHandler, state: State): boolean {
  if (state.covered[state.ran] !== self) return false;
  const { foreseenFor } = state;
  if (foreseenFor !== undefined && (req.method !== foreseenFor || !routedAsSent(req))) {
    return false;
  }
  state.ran++;
  return true;
}

/**
 * The route Express is dispatching to `self` as its first handler. `req.route` names the route
 * dispatched last, which may have handed on: so only the first time that route opens with
 * `self` in this request.
 */
function openedRoute(req: Request, self: RequestHandler, state: State): Route | undefined {
  const route = req.route as Route | undefined;
  if (route === undefined || firstRouteHandler(route, req.method) !== self) {
    return undefined;
  }
  if (state.opened.includes(route)) return undefined;
  state.opened.push(route);
  return route;
}

/** The decision where a route opens with requireAuth, unless no handler of it ends the search. */
function decideInRoute(route: Route, method: string): Decision<Handle> | undefined {
  const search = new Search<Handle>();
  for (const handle of routeHandlers(route, method)) {
    if (search.step(stepOf(handle, true))) return search.decision;
  }
  return undefined;
}

/**
 * The decision at the requireAuth running as the `ordinal`-th of the root app, read from the
 * app's stacks: `undefined` where they do not show this middleware there, or where middleware
 * rewrote the request's target.
 */
function mostSpecific(
  req: Request,
  ordinal: number,
  self: RequestHandler,
  state: State,
): Decision<Handle> | undefined {
  const path = rootPath(req.originalUrl);
  if (path === undefined || state.desynced || !routedAsSent(req)) return undefined;
  const router = (req.app as unknown as { router: RouterLike }).router;
  const search = new SearchFrom(ordinal, self);
  visitHandlers(router, path, req.method, stepOf, search, mayDeclare);
  return search.decision;
}

/** The search from the `ordinal`-th declaration a walk meets, if that is `self`; else none. */
class SearchFrom extends Search<Handle> implements Visitor<Step<Handle>> {
  #before: number;
  readonly #self: RequestHandler;
  #found = false;

  constructor(ordinal: number, self: RequestHandler) {
    super();
    this.#before = ordinal;
    this.#self = self;
  }

  visit(step: Step<Handle>): boolean {
    if (!this.#found) {
      if (step === PASS || step === STOP || this.#before-- > 0) return false;
      if (step !== this.#self) return true;
      this.#found = true;
    }
    return this.step(step);
  }
}

/** Whether `handle` is a {@link requireAuth} middleware. */
function isRequireAuth(handle: unknown): boolean {
  return typeof handle === 'function' && declarations.has(handle);
}

/** The declaration of a {@link requireAuth} middleware. */
export function declarationOf(handle: Handle): Declaration | undefined {
  return declarations.get(handle);
}

/**
 * What a function Express runs is to the search for the deciding declaration: a requireAuth
 * declares; middleware of `use()` that takes `next` hands on; a route's handler, a function
 * without `next` and an app vouch cannot see into may answer.
 */
export function stepOf(handle: Handle, inRoute: boolean): Step<Handle> {
  if (declarations.has(handle)) return handle;
  const app = handle.name === 'mounted_app' || ('handle' in handle && 'set' in handle);
  return !inRoute && handle.length >= 3 && !app ? PASS : STOP;
}

/** Which layers of a stack hold a requireAuth, in their route or the routers under them. */
const mayDeclare = holding(isRequireAuth);

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
      sendVouchError(res, result.error as VouchError, result.challenges, result.headers);
      return;
    }
    state.challenges = result.challenges;
    state.refusalHeaders = result.headers;
    // Never a bare value: next('route') or next('router') would skip what follows.
    next(withHeaders(asError(result.error), result.challenges, result.headers));
    return;
  }
  // A form post may carry its CSRF token in the body, which a body parser put in `req.body`.
  if (
    result.csrfDeferred !== undefined &&
    !(await formCsrfPasses(declaration, result.csrfDeferred, view, req, bodyOf))
  ) {
    sendVouchError(res, new CsrfError(), []);
    return;
  }
  req.auth = result.value;
  state.won = { requirement: result.requirement, engine: declaration.engine };
  // Before the handler, which may set its own.
  if (answersPrivately(declaration, result.requirement, res, hasCacheControl)) {
    res.setHeader('cache-control', 'private');
  }
  next();
}

const bodyOf = (req: Request): unknown => req.body;
const hasCacheControl = (res: Response): boolean => res.hasHeader('cache-control');
