import { isPromiseLike } from '../core/outcome.js';
import {
  rootPath,
  visitHandlers,
  type Handle,
  type RouterLike,
} from '../internal/express-routing.js';
import { PASS, STOP } from '../internal/precedence.js';
import { authenticateRoute } from './authenticate-route.js';
import { openState } from './request-state.js';
import { recordRoute } from './registered-routes.js';
import { kRoute, routeTag, type RouteEntry, type RouteTable } from './route-table.js';
import type { Vouch } from './vouch.js';
import type { HeaderWriter } from './vouch-exception.js';

/** Finds the route a request goes to, before the platform routes it (Express) or as it did. */
export type RouteFinder = (request: object) => RouteEntry | undefined;

/** A hook of Nest's HTTP adapters: `done()` goes on, `done(error)` to the exception layer. */
export type RequestHook = (
  request: object,
  response: unknown,
  done: (error?: unknown) => void,
) => void;

/**
 * The hook authenticating each request to a controller's route before anything reads its body:
 * Nest's adapters run it first, before the body parsers and Nest's middleware (on Express, in the
 * middleware the adapter starts the app with; on Fastify, in its first `onRequest` hook). What
 * refuses the request goes to Nest's exception layer, as a guard's exception would; requests to
 * no route of a controller (the docs page, a 404) are left alone, as guards leave them.
 */
export function requestHook(
  findRoute: RouteFinder,
  vouch: Vouch,
  writer: HeaderWriter,
): RequestHook {
  return function vouchRequestHook(request, response, done) {
    const entry = findRoute(request);
    if (entry === undefined) {
      done();
      return;
    }
    if (entry.declaration.requirements === null) {
      // Decided: the guard must not take the route for one the hook missed.
      openState(request, entry);
      done();
      return;
    }
    const outcome = authenticateRoute(vouch, entry, request, response, writer);
    if (isPromiseLike(outcome)) outcome.then(done, done);
    else done(outcome);
  };
}

/** Fastify routed the request already: its route's config names the handler. */
export function fastifyRoute(table: RouteTable): RouteFinder {
  return (request) =>
    table.entryOfTag(
      (request as { routeOptions: { config?: { [kRoute]?: unknown } } }).routeOptions.config?.[
        kRoute
      ],
    );
}

/** The options of a route as Fastify's `onRoute` hooks receive them, as far as vouch reads them. */
export interface FastifyRouteOptions {
  readonly method: string | readonly string[];
  readonly url: string;
  config?: { readonly [kRoute]?: unknown };
  readonly handler?: unknown;
}

/**
 * Fastify's `onRoute` hook: records in `routes` each route of a controller's handler, and names
 * the handler in the config of a route Nest registered without it (Nest 11 does so for `@All()`),
 * from the tag the handler Nest gave Fastify carries.
 */
export function recordRoutes(
  table: RouteTable,
  routes: Map<string, RouteEntry>,
): (route: FastifyRouteOptions) => void {
  return (route) => {
    const configured = route.config?.[kRoute];
    const tag = configured ?? routeTag(route.handler);
    const entry = table.entryOfTag(tag);
    if (entry === undefined) return;
    if (configured === undefined) route.config = { ...route.config, [kRoute]: tag };
    recordRoute(routes, route, entry);
  };
}

/**
 * On Express, the route is the first of the app's routes that the router would dispatch the
 * request to, read from its stacks as it walks them, passing over middleware of `use()`; nothing
 * when the walk cannot tell (the guard then authenticates, after the body was read).
 */
export function expressRoute(table: RouteTable, router: RouterLike): RouteFinder {
  return (request) => {
    const { originalUrl, method } = request as { originalUrl: string; method: string };
    const path = rootPath(originalUrl);
    if (path === undefined) return undefined;
    let handler: Handle | undefined;
    visitHandlers(router, path, method, named, {
      visit(step) {
        if (step === PASS) return false;
        if (step !== STOP) handler = step;
        return true;
      },
    });
    return table.entryOfRoute(handler);
  };
}

const named = (handle: Handle, inRoute: boolean): Handle | typeof PASS => (inRoute ? handle : PASS);
