import type { OperationAuth } from '../core/operation-auth.js';

const routes = new WeakMap<object, OperationAuth>();

/** Records what was resolved for a route's options object (the one `onRoute` hooks receive). */
export function setRouteAuth(routeOptions: object, auth: OperationAuth): void {
  routes.set(routeOptions, auth);
}

/**
 * The authentication resolved for a route, from the route options object that `onRoute` hooks
 * and `@fastify/swagger`'s `transform` receive; `undefined` for routes declared without vouch.
 */
export function routeAuthOf(routeOptions: object): OperationAuth | undefined {
  return routes.get(routeOptions);
}
