import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { routeAuthOf } from '../route-auth.js';
import type { VouchDecoration } from '../types.js';
import { describeSecurity } from '../../openapi/describe-security.js';
import { addSecuritySchemes, type DocumentParts } from '../../openapi/document-security.js';
import { withSecurity } from './with-security.js';

/** What the transforms need from the app: vouch's decoration (read when the document is built). */
export interface VouchDescribed {
  readonly vouch: Pick<VouchDecoration, 'securitySchemes' | 'realm'>;
}

/**
 * A `@fastify/swagger` `transform` that gives each route vouch's `security` and error responses
 * (see {@link describeSecurity} and {@link withSecurity}), after the given `transform`, if any.
 * Routes vouch did not see are left as they are. A route's own `config.swaggerTransform` replaces
 * every global transform, this one included: such routes document their security themselves.
 *
 * @example await app.register(swagger, { openapi, transform: securityTransform(app) });
 */
export function securityTransform(
  app: VouchDescribed,
  transform?: SwaggerTransform,
): SwaggerTransform {
  return (input) => {
    const given: Partial<ReturnType<SwaggerTransform>> =
      transform === undefined ? input : transform(input);
    const schema: FastifySchema | undefined = given.schema ?? input.schema;
    const url = given.url ?? input.url;
    const auth = routeAuthOf(input.route);
    if (auth === undefined || !('openapiObject' in input)) return { schema, url };
    const document = input.openapiObject as DocumentParts;
    // @fastify/swagger looks each requirement's scheme up while it builds the operation, before
    // transformObject runs, so the schemes must be there already.
    addSecuritySchemes(document, app.vouch.securitySchemes());
    const description = describeSecurity(auth, input.route.method, { realm: app.vouch.realm });
    return { schema: withSecurity(schema, description), url };
  };
}

/**
 * A `@fastify/swagger` `transformObject` that sets `components.securitySchemes` from every scheme
 * vouch enforces, then applies the given `transformObject`, if any.
 *
 * @example await app.register(swagger, { openapi, transformObject: securityTransformObject(app) });
 */
export function securityTransformObject(
  app: VouchDescribed,
  transformObject?: SwaggerTransformObject,
): SwaggerTransformObject {
  return (documentObject) => {
    if ('openapiObject' in documentObject) {
      addSecuritySchemes(documentObject.openapiObject, app.vouch.securitySchemes());
    }
    if (transformObject !== undefined) return transformObject(documentObject);
    return 'openapiObject' in documentObject
      ? documentObject.openapiObject
      : documentObject.swaggerObject;
  };
}
