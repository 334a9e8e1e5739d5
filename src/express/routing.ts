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
 * middleware is skipped, as `router` skips it. What vouch cannot see through (a mounted app, a
 * param callback, a layer whose matching throws) is yielded as {@link OPAQUE}.
 */
export function* handlersFor(
  router: RouterLike,
  path: string,
  method: string,
): Generator<unknown, void, undefined> {
  for (const layer of router.stack) {
    let match: ReturnType<Layer['match']>;
    try {
      match = layer.match(path);
    } catch {
      // `router` goes on with the error: no other handler runs.
      return yield OPAQUE;
    }
    if (match === false) continue;
    // `router.param` callbacks run before the layer, and may answer.
    if (Object.keys(match.params).some((key) => (router.params?.[key]?.length ?? 0) > 0)) {
      yield OPAQUE;
    }
    const { route, handle } = layer;
    if (route !== undefined) {
      if (!route._handlesMethod(method) && method !== 'HEAD') continue;
      let name = method.toLowerCase();
      if (name === 'head' && route.methods.head !== true) name = 'get';
      for (const inner of route.stack) {
        if ((inner.method === undefined || inner.method === name) && inner.handle.length <= 3) {
          yield inner.handle;
        }
      }
      continue;
    }
    // `router` runs a `use()` layer only where the path breaks after its prefix.
    const rest = path.slice(match.path.length);
    if (handle.length > 3 || (rest !== '' && !rest.startsWith('/'))) continue;
    if (Array.isArray(handle.stack)) {
      yield* handlersFor(handle as RouterLike, rest === '' ? '/' : rest, method);
    } else {
      yield handle;
    }
  }
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
