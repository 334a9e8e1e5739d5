import type { Requirement } from '../core/auth-spec.js';

/** The authentication in force on one route, as resolved at start-up. */
export interface RouteAuth {
  /** Any-of requirements, or `null` when authentication is disabled on the route. */
  readonly requirements: readonly Requirement[] | null;
  /** Whether CSRF protection applies to cookie credentials on this route. */
  readonly csrf: boolean;
  /** Scopes the credential must grant, if any. */
  readonly scopes?: readonly string[] | undefined;
}

const routes = new WeakMap<object, RouteAuth>();

/** Records what was resolved for a route's options object (the one `onRoute` hooks receive). */
export function setRouteAuth(routeOptions: object, auth: RouteAuth): void {
  routes.set(routeOptions, auth);
}

/**
 * The authentication resolved for a route, from the route options object that `onRoute` hooks
 * and `@fastify/swagger`'s `transform` receive; `undefined` for routes declared without vouch.
 */
export function routeAuthOf(routeOptions: object): RouteAuth | undefined {
  return routes.get(routeOptions);
}
