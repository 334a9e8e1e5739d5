import { operationAuth } from '../internal/declaration.js';
import { fillDocument, type Filled } from '../openapi/document-security.js';
import { decide, STOP, type Step } from '../internal/precedence.js';
import { declarationOf, stepOf } from './require-auth.js';
import { handlersFor, type Handle, type RouterLike } from '../internal/express-routing.js';

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
  return fillDocument(document, (method, path) => {
    const steps = [...handlersFor(router, path, method, named)];
    // A route's handler before any requireAuth answers with no declaration in force.
    const first = steps.findIndex(
      (step) => step !== STOP && (step.route || declarationOf(step.handle) !== undefined),
    );
    const opening = steps[first];
    if (opening === undefined || opening === STOP || opening.route) return undefined;
    const found = decide(steps.slice(first).map((step) => (step === STOP ? STOP : step.step)));
    const declaration = found && declarationOf(found.deciding);
    return declaration && operationAuth(declaration);
  });
}

/** A function the walk meets: what it is to the search, and whether it is a route's handler. */
function named(
  handle: Handle,
  inRoute: boolean,
): { handle: Handle; step: Step<Handle>; route: boolean } {
  const step = stepOf(handle, inRoute);
  return { handle, step, route: inRoute && declarationOf(handle) === undefined };
}
