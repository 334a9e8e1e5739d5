import { operationAuth } from '../internal/declaration.js';
import { fillDocument, type Filled } from '../openapi/document-security.js';
import { deciding, isRequireAuth } from './require-auth.js';
import { handlersFor, type RouterLike } from './routing.js';

/** What vouch needs of an Express app: its router. */
export interface RoutedApp {
  readonly router: unknown;
}

/**
 * A copy of an OpenAPI document (written by hand or by a generator) in which each operation
 * carries the `security` and error responses of the `requireAuth` that decides it, found by
 * walking the app's routers for the operation's path as Express would for a request;
 * `components.securitySchemes` lists the schemes in use. Operations no `requireAuth` covers, or
 * served by a mounted app, are left as they are; the given document is never changed. Call it
 * once the routes are declared, e.g. when the description is requested.
 *
 * @example
 * app.get('/api/openapi.json', requireAuth(null), (req, res) => {
 *   res.json(documentSecurity(app, document));
 * });
 */
export function documentSecurity<TDocument extends object>(
  app: RoutedApp,
  document: TDocument,
): Filled<TDocument> {
  const router = app.router as RouterLike;
  const answering = routeHandlers(router);
  return fillDocument(document, (method, path) => {
    const handles = [...handlersFor(router, path, method)];
    // A route's handler before any requireAuth answers with no declaration in force.
    const first = handles.findIndex((handle) => isRequireAuth(handle) || answering.has(handle));
    if (first === -1 || !isRequireAuth(handles[first])) return undefined;
    const found = deciding(handles.slice(first), 0);
    return found === undefined ? undefined : operationAuth(found.declaration);
  });
}

/** The handlers of every route in `router` and the Routers under it. */
function routeHandlers(router: RouterLike, into = new Set<unknown>()): Set<unknown> {
  for (const layer of router.stack) {
    if (layer.route !== undefined) for (const inner of layer.route.stack) into.add(inner.handle);
    else if (Array.isArray(layer.handle.stack)) routeHandlers(layer.handle as RouterLike, into);
  }
  return into;
}
