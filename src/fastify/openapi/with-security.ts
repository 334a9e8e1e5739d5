import type { FastifySchema } from 'fastify';
import type { SecurityDescription } from '../../openapi/describe-security.js';
import type { ErrorResponseObject } from '../../openapi/responses.js';

/**
 * A copy of a route schema, in the form `@fastify/swagger` reads, carrying vouch's `security` and
 * error responses. vouch decides `security` (the description must say what is enforced), `[]` on
 * a public route so that it never inherits a top-level one; a
 * response the route already documents for a status is kept as it is. When the route had no
 * `response` at all, the default `200` that `@fastify/swagger` would have shown is kept too.
 * The given schema is never changed.
 *
 * @example withSecurity(route.schema, describeSecurity(routeAuthOf(route)!, route.method))
 */
export function withSecurity(
  schema: FastifySchema | undefined,
  description: SecurityDescription,
): FastifySchema {
  const result: FastifySchema = { ...schema, security: description.security };

  const added = Object.entries(description.responses);
  if (added.length === 0) return result;
  const given: unknown = schema?.response;
  const response: Record<string, unknown> =
    typeof given === 'object' && given !== null
      ? { ...given }
      : { 200: { type: 'null', description: 'Default Response' } };
  for (const [status, object] of added) {
    if (!Object.hasOwn(response, status)) response[status] = toSwaggerResponse(object);
  }
  result.response = response;
  return result;
}

/**
 * `@fastify/swagger` builds Response Objects from JSON-Schema-like entries: headers as schemas
 * with a `description`, and `content` taken over as is.
 */
function toSwaggerResponse(object: ErrorResponseObject): Record<string, unknown> {
  const headers =
    object.headers === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(object.headers).map(([name, header]) => [
            name,
            { ...header.schema, description: header.description },
          ]),
        );
  return {
    description: object.description,
    ...(headers === undefined ? {} : { headers }),
    content: object.content,
  };
}
