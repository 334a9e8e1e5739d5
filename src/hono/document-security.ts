import type { RouterRoute } from 'hono/types';
import { operationAuth } from '../internal/declaration.js';
import { fillDocument, type Filled } from '../openapi/document-security.js';
import { decidingDeclaration } from './require-auth.js';

/** What vouch needs of a Hono app (`Hono`, `OpenAPIHono`…): its router. */
export interface RoutedApp {
  readonly router: {
    match(
      method: string,
      path: string,
    ): readonly [readonly (readonly [readonly [unknown, RouterRoute], unknown])[], ...unknown[]];
  };
}

/**
 * A copy of an OpenAPI document (say `app.getOpenAPI31Document(...)` of `@hono/zod-openapi`) in
 * which each operation carries the `security` and error responses of the `requireAuth` that
 * decides it, found by matching the operation's path through the app's own router, as a request
 * would be; `components.securitySchemes` lists the schemes in use. Operations no `requireAuth`
 * covers are left as they are; the given document is never changed.
 *
 * @example
 * app.get('/api/openapi.json', requireAuth(null), (c) =>
 *   c.json(documentSecurity(app, app.getOpenAPI31Document({ openapi: '3.1.0', info }))),
 * );
 */
export function documentSecurity<TDocument extends object>(
  app: RoutedApp,
  document: TDocument,
): Filled<TDocument> {
  return fillDocument(document, (method, path) => {
    // Hono answers HEAD with its GET route.
    const matched = app.router.match(method === 'HEAD' ? 'GET' : method, path)[0];
    const declaration = decidingDeclaration(matched.map(([[, route]]) => route));
    return declaration === undefined ? undefined : operationAuth(declaration);
  });
}
