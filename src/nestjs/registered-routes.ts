// The routes of controllers as the platform registered them (method and path), for matching the
// operations of a description to what decides them.
import type { RouterLike } from '../internal/express-routing.js';
import type { RouteEntry, RouteTable } from './route-table.js';

/** Routes by operation: `GET /pets/0`, each path parameter standing as `0` (see `operationKey`). */
export type RoutesByOperation = ReadonlyMap<string, RouteEntry>;

/**
 * The key of an operation: its method (`ALL` for a route of every method) and a path its path
 * template matches, each parameter (`:id` on the platforms, `{id}` in OpenAPI) standing as `0`,
 * as `fillDocument` asks for them.
 */
export function operationKey(method: string, path: string): string {
  return `${method} ${path.replace(/:[^/]+/g, '0')}`;
}

/**
 * Records a route Fastify registers (its `onRoute` options), when a controller's handler serves
 * it: every method it answers.
 */
export function recordRoute(
  routes: Map<string, RouteEntry>,
  route: { readonly method: string | readonly string[]; readonly url: string },
  entry: RouteEntry,
): void {
  const methods = typeof route.method === 'string' ? [route.method] : route.method;
  for (const method of methods) routes.set(operationKey(method, route.url), entry);
}

/** The routes of controllers in an Express app's router, read from its stack. */
export function expressRoutes(table: RouteTable, router: RouterLike): RoutesByOperation {
  const routes = new Map<string, RouteEntry>();
  for (const { route } of router.stack) {
    const path = (route as { path?: unknown } | undefined)?.path;
    if (route === undefined || typeof path !== 'string') continue;
    const entry = route.stack
      .map(({ handle }) => table.entryOfRoute(handle))
      .find((found) => found !== undefined);
    if (entry === undefined) continue;
    for (const [method, on] of Object.entries(route.methods)) {
      if (on === true)
        routes.set(operationKey(method === '_all' ? 'ALL' : method.toUpperCase(), path), entry);
    }
  }
  return routes;
}
