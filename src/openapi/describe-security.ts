import type { OperationAuth } from '../core/operation-auth.js';
import {
  errorResponses,
  type ErrorResponseObject,
  type ErrorResponsesOptions,
} from './responses.js';
import { securityRequirements, type SecurityRequirement } from './security-requirements.js';

/** What the description says about one operation's authentication. */
export interface SecurityDescription {
  /** The operation's `security`; `[]` where no credential is described (see {@link securityRequirements}). */
  readonly security: SecurityRequirement[];
  /** vouch's error replies by status (see {@link errorResponses}); empty when unprotected. */
  readonly responses: Record<string, ErrorResponseObject>;
}

/**
 * Describes a route's authentication for OpenAPI without any HTTP: its `security` and the error
 * responses vouch may send. `route` is what the engine resolved for it (`routeAuthOf` on Fastify).
 *
 * @example
 * const { security, responses } = describeSecurity({ requirements: [[session]], csrf: true }, 'POST');
 * // security: [{ sessionAuth: [] }]; responses: 400, 401, 403, 503
 */
export function describeSecurity(
  route: OperationAuth,
  method: string | readonly string[],
  options: ErrorResponsesOptions = {},
): SecurityDescription {
  return {
    security: securityRequirements(route.requirements, route.scopes),
    responses: errorResponses(route, method, options),
  };
}
