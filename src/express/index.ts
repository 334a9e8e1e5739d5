export { requireAuth, authOf, type RequireAuthOptions } from './require-auth.js';
export { requestView, type ExpressRequestView } from './request-view.js';
export { sendVouchError } from './send-vouch-error.js';
export {
  exceptionHandler,
  vouchErrorHandler,
  type ExceptionHandler,
  type ExceptionHandlerEntry,
  type VouchErrorHandlerOptions,
} from './error-handler.js';
export type { ErrorClass } from '../internal/handler-for.js';
export { documentSecurity, type RoutedApp } from './document-security.js';
export { chainRequestInterceptors } from '../openapi/chain-request-interceptors.js';
export {
  csrfRequestInterceptor,
  type AsyncRequestInterceptor,
  type CsrfNames,
} from '../openapi/csrf-request-interceptor.js';
export { senderConstrainedAuthorization } from '../openapi/sender-constrained-authorization.js';
export { dpopRequestInterceptor } from '../openapi/dpop-request-interceptor.js';
export { persistTokensOnly, type SwaggerUiPlugin } from '../openapi/persist-tokens-only.js';
export { serveResourceMetadata, type RoutingApp } from './resource-metadata.js';
