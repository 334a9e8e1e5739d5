import type { INestApplication } from '@nestjs/common';
import { operationAuth } from '../internal/declaration.js';
import { fillDocument, type Filled } from '../openapi/document-security.js';
import { operationKey } from './registered-routes.js';
import { Vouch } from './vouch.js';

/**
 * A copy of an OpenAPI document (say the one `SwaggerModule.createDocument` builds) in which each
 * operation of a controller's route carries the `security` and error responses of what decides
 * it (`@Auth()` of its handler, its controller, or `VouchModule.forRoot`'s), matched by method and
 * path to the routes the platform registered; `components.securitySchemes` lists the schemes in
 * use. No `@ApiBearerAuth()` or `@ApiSecurity()` is needed, and the description cannot say other
 * than what is enforced. Other operations are left as they are; the given document is never
 * changed. Call it once the application is initialised: in the factory given to
 * `SwaggerModule.setup`, which builds the document on the first request.
 *
 * @example
 * SwaggerModule.setup('api/docs', app, () =>
 *   documentSecurity(app, SwaggerModule.createDocument(app, config)),
 * );
 */
export function documentSecurity<TDocument extends object>(
  app: INestApplication,
  document: TDocument,
): Filled<TDocument> {
  const routes = app.get(Vouch).routesByOperation();
  return fillDocument(document, (method, path) => {
    const entry = routes.get(operationKey(method, path)) ?? routes.get(operationKey('ALL', path));
    return entry && operationAuth(entry.declaration);
  });
}
