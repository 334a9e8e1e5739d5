export { chainRequestInterceptors } from '../../openapi/chain-request-interceptors.js';
export {
  csrfRequestInterceptor,
  type AsyncRequestInterceptor,
  type CsrfNames,
  type InterceptedRequest,
  type RequestInterceptor,
} from '../../openapi/csrf-request-interceptor.js';
export { senderConstrainedAuthorization } from '../../openapi/sender-constrained-authorization.js';
export { dpopRequestInterceptor } from '../../openapi/dpop-request-interceptor.js';
export { persistTokensOnly, type SwaggerUiPlugin } from '../../openapi/persist-tokens-only.js';
export {
  securityTransform,
  securityTransformObject,
  type VouchDescribed,
} from './security-transform.js';
export { vouchOpenapi, type VouchOpenapiOptions } from './vouch-openapi.js';
export { withSecurity } from './with-security.js';
