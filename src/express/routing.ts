// What Express will run for a request, read from its routers' stacks the way `router` walks them.

/** A layer of a `router` stack, as far as vouch reads it. */
interface Layer {
  readonly handle: ((...args: never[]) => unknown) & { readonly stack?: unknown };
  readonly route?: Route;
  readonly method?: string;
  match(path: string): { readonly path: string; readonly params: object } | false;
}

interface Route {
  readonly stack: readonly Layer[];
  readonly methods: Readonly<Record<string, boolean | undefined>>;
  _handlesMethod(method: string): boolean;
}

/** A `Router` (an app's `app.router` is one): its layers and its `router.param` callbacks. */
export interface RouterLike {
  readonly stack: readonly Layer[];
  readonly params?: Readonly<Record<string, readonly unknown[] | undefined>>;
}

/** Stands for code that may answer before what follows it runs (a handler, a param callback). */
export const OPAQUE = Symbol('opaque');

/**
 * The handlers `router` calls for a request, in order, while each calls `next()`: middleware of
 * `use()`, then, inside a `Router`, its own, and a route's handlers for the method. Error
 * middleware is skipped, as `router` skips it. What vouch cannot see through (a param callback,
 * a layer whose matching throws, a `Router`'s own answer to OPTIONS) is yielded as
 * {@link OPAQUE}; a mounted app as the one handler Express mounts it with. Returns whether
 * `router` went on with an error, after which no handler runs.
 */
export function* handlersFor(
  router: RouterLike,
  path: string,
  method: string,
): Generator<unknown, boolean, undefined> {
  // A route for the path that lacks OPTIONS makes `router` answer it once its stack is done.
  let allows = false;
  for (const layer of router.stack) {
    let match: ReturnType<Layer['match']>;
    try {
      match = layer.match(path);
    } catch {
      // `router` goes on with the error: no other handler runs, in this router or above.
      yield OPAQUE;
      return true;
    }
    if (match === false) continue;
    const { route, handle } = layer;
    if (route !== undefined && !route._handlesMethod(method)) {
      allows ||= method === 'OPTIONS' && Object.keys(route.methods).length > 0;
      if (method !== 'HEAD') continue;
    }
    // `router.param` callbacks run before the layer, and may answer.
    if (Object.keys(match.params).some((key) => (router.params?.[key]?.length ?? 0) > 0)) {
      yield OPAQUE;
    }
    if (route !== undefined) {
      let name = method.toLowerCase();
      if (name === 'head' && route.methods.head !== true) name = 'get';
      for (const inner of route.stack) {
        if ((inner.method === undefined || inner.method === name) && inner.handle.length <= 3) {
          yield inner.handle;
        }
      }
      continue;
    }
    // `router` runs a `use()` layer only where its match starts the path (a regular expression
    // may match further on) and the path breaks after it.
    const rest = path.slice(match.path.length);
    if (
      handle.length > 3 ||
      !path.startsWith(match.path) ||
      (rest !== '' && !rest.startsWith('/'))
    ) {
      continue;
    }
    if (Array.isArray(handle.stack)) {
      if (yield* handlersFor(handle as RouterLike, rest === '' ? '/' : rest, method)) return true;
    } else {
      yield handle;
    }
  }
  if (allows) yield OPAQUE;
  return false;
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
