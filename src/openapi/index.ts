export {
  csrfRequestInterceptor,
  type CsrfNames,
  type InterceptedRequest,
  type RequestInterceptor,
} from './csrf-request-interceptor.js';
export type { OperationAuth } from '../core/operation-auth.js';
export { describeSecurity, type SecurityDescription } from './describe-security.js';
export { persistTokensOnly, type SwaggerUiPlugin } from './persist-tokens-only.js';
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
export {
  securityTransform,
  securityTransformObject,
  type VouchDescribed,
} from './security-transform.js';
export { vouchOpenapi, type VouchOpenapiOptions } from './vouch-openapi.js';
export { withSecurity } from './with-security.js';
