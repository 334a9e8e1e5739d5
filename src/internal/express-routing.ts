// What Express will run for a request, read from its routers' stacks the way `router` walks them:
// by vouch/express, and by vouch/nestjs on Nest's Express platform.
import { STOP } from './precedence.js';

/** A function a `router` stack holds. */
export type Handle = ((...args: never[]) => unknown) & { readonly stack?: unknown };

/** A layer of a `router` stack, as far as vouch reads it. */
export interface Layer {
  readonly handle: Handle;
  readonly route?: Route;
  readonly method?: string;
  match(path: string): { readonly path: string; readonly params: object } | false;
}

/** A route: the handlers `app.get(path, …)` and its kin declare for one path. */
export interface Route {
  readonly stack: readonly Layer[];
  readonly methods: Readonly<Record<string, boolean | undefined>>;
  _handlesMethod(method: string): boolean;
}

/** A `Router` (an app's `app.router` is one): its layers and its `router.param` callbacks. */
export interface RouterLike {
  readonly stack: readonly Layer[];
  readonly params?: Readonly<Record<string, readonly unknown[] | undefined>>;
}

/** What a walk names each function it meets: `inRoute` for a route's handler, else `use()`'s. */
export type Naming<T> = (handle: Handle, inRoute: boolean) => T;

/** Receives each function a walk meets, in order. */
export interface Visitor<T> {
  /** Takes the next function; answers `true` to end the walk there. */
  visit(step: T | typeof STOP): boolean;
}

/**
 * Shows `visit` what `router` calls for a request, in order, while each calls `next()`, each
 * function as `name` calls it: middleware of `use()`, then, inside a `Router`, its own, and a
 * route's handlers for the method. Error middleware is skipped, as `router` skips it. What vouch
 * cannot see through (a param callback, a layer whose matching throws, a `Router`'s own answer
 * to OPTIONS) is {@link STOP}; a mounted app is the one function Express mounts it with. The
 * walk ends where `router` goes on with an error, after which nothing runs, or where `visit`
 * answers `true`.
 *
 * Given `mayDeclare` (see {@link holding}), a layer it says holds no declaration is matched only
 * once a later layer that may hold one runs: what follows the last of those cannot change which
 * declaration decides, so it is left out, unmatched (an OPTIONS request is still walked whole).
 */
export function visitHandlers<T>(
  router: RouterLike,
  path: string,
  method: string,
  name: Naming<T>,
  visitor: Visitor<T>,
  mayDeclare?: Holding,
): void {
  const lazy = method === 'OPTIONS' ? undefined : mayDeclare;
  walk({ method, name, visitor, mayDeclare: lazy, postponed: [] }, router, path);
}

/** {@link visitHandlers}' steps, all of them, in a list. */
export function handlersFor<T>(
  router: RouterLike,
  path: string,
  method: string,
  name: Naming<T>,
  mayDeclare?: Holding,
): (T | typeof STOP)[] {
  const steps: (T | typeof STOP)[] = [];
  const collect = { visit: (step: T | typeof STOP) => steps.push(step) < 0 };
  visitHandlers(router, path, method, name, collect, mayDeclare);
  return steps;
}

interface Walk<T> {
  readonly method: string;
  readonly name: Naming<T>;
  readonly visitor: Visitor<T>;
  readonly mayDeclare: Holding | undefined;
  /** Layers left unmatched so far, in the order `router` would reach them. */
  readonly postponed: { router: RouterLike; path: string; from: number; to: number }[];
}

/** Walks `router`'s layers `from` up to `to`; `true` when the walk ends. */
function walk<T>(
  context: Walk<T>,
  router: RouterLike,
  path: string,
  from = 0,
  to = router.stack.length,
): boolean {
  const { method, postponed, visitor } = context;
  // A route for the path that lacks OPTIONS makes `router` answer it once its stack is done.
  let allows = false;
  let unmatched: number | undefined;
  const holds = context.mayDeclare?.(router.stack);
  for (let index = from; index < to; index++) {
    const layer = router.stack[index] as Layer;
    if (holds?.[index] === false) {
      unmatched ??= index;
      continue;
    }
    let match: ReturnType<Layer['match']> | undefined;
    try {
      match = layer.match(path);
    } catch {
      // `router` goes on with the error: no other handler runs, in this router or above.
      match = undefined;
    }
    if (match === false) continue;
    const { route } = layer;
    if (match !== undefined && route !== undefined && !route._handlesMethod(method)) {
      allows ||= method === 'OPTIONS' && Object.keys(route.methods).length > 0;
      if (method !== 'HEAD') continue;
    }
    // This layer runs: what was left unmatched before it may run first.
    if (unmatched !== undefined) postponed.push({ router, path, from: unmatched, to: index });
    unmatched = undefined;
    if (postponed.length > 0 && catchUp(context)) return true;
    if (match === undefined) {
      visitor.visit(STOP);
      return true;
    }
    if (layerRuns(context, router, layer, match, path)) return true;
  }
  if (unmatched !== undefined) postponed.push({ router, path, from: unmatched, to });
  return allows && visitor.visit(STOP);
}

/** Walks, in order and whole, the layers left unmatched until now. */
function catchUp<T>(context: Walk<T>): boolean {
  const whole: Walk<T> = { ...context, mayDeclare: undefined, postponed: [] };
  for (const { router, path, from, to } of context.postponed.splice(0)) {
    if (walk(whole, router, path, from, to)) return true;
  }
  return false;
}

/** What a layer that matched runs; `true` when the walk ends. */
function layerRuns<T>(
  context: Walk<T>,
  router: RouterLike,
  layer: Layer,
  match: Exclude<ReturnType<Layer['match']>, false>,
  path: string,
): boolean {
  const { visitor, name } = context;
  // `router.param` callbacks run before the layer, and may answer.
  if (hasParamCallback(router, match.params) && visitor.visit(STOP)) return true;
  const { route, handle } = layer;
  if (route !== undefined) {
    for (const inner of routeHandlers(route, context.method)) {
      if (visitor.visit(name(inner, true))) return true;
    }
    return false;
  }
  // `router` runs a `use()` layer only where its match starts the path (a regular expression
  // may match further on) and the path breaks after it.
  const rest = path.slice(match.path.length);
  if (handle.length > 3 || !path.startsWith(match.path) || (rest !== '' && !rest.startsWith('/'))) {
    return false;
  }
  if (Array.isArray(handle.stack)) {
    return walk(context, handle as RouterLike, rest === '' ? '/' : rest);
  }
  return visitor.visit(name(handle, false));
}

/** Whether a `router.param` callback is registered for one of `params`. */
function hasParamCallback(router: RouterLike, params: object): boolean {
  if (router.params === undefined) return false;
  for (const key of Object.keys(params)) if ((router.params[key]?.length ?? 0) > 0) return true;
  return false;
}

/** Of each layer of a stack, whether it holds a function looked for, in its route or below. */
export type Holding = (stack: readonly Layer[]) => readonly boolean[];

/** What {@link holding} knows of a stack, with what it read it from. */
interface Summary {
  readonly layers: readonly Layer[];
  /** Each route's stack of handlers, and its length then; for a layer of `use()`, none and -1. */
  readonly routes: readonly (readonly Layer[] | undefined)[];
  readonly sizes: readonly number[];
  readonly holds: readonly boolean[];
  readonly any: boolean;
}

/**
 * Which layers of a stack hold a function `holds` picks out, in their route or in the routers
 * under them, read once and then checked on every use against the stacks: while each keeps
 * its layers and its length, nothing was added. `router` only ever appends to them (a route, a
 * handler of a route, a layer of a router), so what is added later is always seen.
 */
export function holding(holds: (handle: Handle) => boolean): Holding {
  const known = new WeakMap<readonly Layer[], Summary>();
  const summaryOf = (stack: readonly Layer[]): Summary => {
    const summary = known.get(stack);
    if (summary !== undefined && unchanged(summary, stack)) return summary;
    const layers = [...stack];
    const flags = layers.map(({ route, handle }) =>
      route === undefined
        ? holds(handle) || (Array.isArray(handle.stack) && summaryOf(handle.stack as Layer[]).any)
        : route.stack.some((inner) => holds(inner.handle)),
    );
    const read: Summary = {
      layers,
      routes: layers.map(({ route }) => route?.stack),
      sizes: layers.map(({ route }) => route?.stack.length ?? -1),
      holds: flags,
      any: flags.includes(true),
    };
    known.set(stack, read);
    return read;
  };
  // Run on every request: reads as little as it can (a route's stack, not through its layer).
  const unchanged = ({ layers, routes, sizes, holds: flags }: Summary, stack: readonly Layer[]) => {
    if (stack.length !== layers.length) return false;
    for (let index = 0; index < stack.length; index++) {
      const layer = stack[index] as Layer;
      if (layer !== layers[index]) return false;
      const route = routes[index];
      if (route !== undefined) {
        if (route.length !== sizes[index]) return false;
      } else if (Array.isArray(layer.handle.stack)) {
        if (summaryOf(layer.handle.stack as Layer[]).any !== flags[index]) return false;
      }
    }
    return true;
  };
  return (stack) => summaryOf(stack).holds;
}

/** The handlers `route` calls for `method`, in order, while each calls `next()`. */
export function routeHandlers(route: Route, method: string): Handle[] {
  const name = methodName(route, method);
  const handlers: Handle[] = [];
  for (const inner of route.stack) if (calls(inner, name)) handlers.push(inner.handle);
  return handlers;
}

/** The first handler `route` calls for `method`. */
export function firstRouteHandler(route: Route, method: string): Handle | undefined {
  const name = methodName(route, method);
  return route.stack.find((inner) => calls(inner, name))?.handle;
}

/** The method whose handlers `route` calls for `method`: HEAD without its own is GET. */
function methodName(route: Route, method: string): string {
  const name = method.toLowerCase();
  return name === 'head' && route.methods.head !== true ? 'get' : name;
}

/** Whether a route calls its layer `inner` for the lower-case method `name` (not on errors). */
function calls(inner: Layer, name: string): boolean {
  return (inner.method === undefined || inner.method === name) && inner.handle.length <= 3;
}

/**
 * The path `router` matches a request's target against at the app's root: the target up to its
 * query, or `undefined` where `router` would read it otherwise (an absolute target, characters
 * Node's URL parser rewrites).
 */
export function rootPath(originalUrl: string): string | undefined {
  const end = originalUrl.indexOf('?');
  const path = end === -1 ? originalUrl : originalUrl.slice(0, end);
  return path.startsWith('/') && !/[\t\n\f\r #\u00a0\ufeff]/.test(path) ? path : undefined;
}

/**
 * Whether `router` routes the request by the target it arrived with, which is what
 * {@link rootPath} reads: no middleware rewrote `req.url`. `router` moves a mount path from
 * `req.url` to `req.baseUrl`, adding a `/` where none is left.
 */
export function routedAsSent(req: {
  readonly baseUrl: string;
  readonly url: string;
  readonly originalUrl: string;
}): boolean {
  const { baseUrl, url, originalUrl } = req;
  if (!originalUrl.startsWith(baseUrl)) return false;
  const rest = originalUrl.length - baseUrl.length;
  if (url.length === rest) return originalUrl.endsWith(url);
  // Where the mount path leaves nothing but the query, if any, `router` adds the '/'.
  return (
    url.length === rest + 1 &&
    url.startsWith('/') &&
    url.endsWith(originalUrl.slice(baseUrl.length))
  );
}
