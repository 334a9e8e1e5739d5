export { chainRequestInterceptorsSource } from './chain-interceptors-source.js';
export { csrfRequestInterceptorSource, type CsrfNames } from './csrf-interceptor-source.js';
export {
  DPOP_KEY_NOTE,
  DPOP_TOKEN_REQUEST_NOTE,
  MUTUAL_TLS_NOTE,
  senderConstrainedAuthorizationSource,
} from './sender-constrained-authorization-source.js';
export { dpopRequestInterceptorSource } from './dpop-interceptor-source.js';
export type { OperationAuth } from '../core/operation-auth.js';
export { describeSecurity, type SecurityDescription } from './describe-security.js';
export { persistTokensOnlySource } from './persist-tokens-only-source.js';
export {
  csrfCanApply,
  errorBodySchema,
  errorResponses,
  type ErrorResponseObject,
  type ErrorResponsesOptions,
  type HeaderObject,
  type JsonSchema,
} from './responses.js';
export { securityRequirements, type SecurityRequirement } from './security-requirements.js';
