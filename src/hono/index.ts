export {
  exceptionHandler,
  vouchErrorHandler,
  type ExceptionHandler,
  type ExceptionHandlerEntry,
  type VouchErrorHandlerOptions,
} from './error-handler.js';
export type { ErrorClass } from '../internal/handler-for.js';
export { requestView, type HonoRequestView } from './request-view.js';
export { authOf, requireAuth, type AuthEnv, type RequireAuthOptions } from './require-auth.js';
export { sendVouchError } from './send-vouch-error.js';
export { documentSecurity, type RoutedApp } from './document-security.js';
export { chainRequestInterceptorsSource } from '../openapi/chain-interceptors-source.js';
export {
  csrfRequestInterceptorSource,
  type CsrfNames,
} from '../openapi/csrf-interceptor-source.js';
export { senderConstrainedAuthorizationSource } from '../openapi/sender-constrained-authorization-source.js';
export { dpopRequestInterceptorSource } from '../openapi/dpop-interceptor-source.js';
export { persistTokensOnlySource } from '../openapi/persist-tokens-only-source.js';
export { serveResourceMetadata, type RoutingApp } from './resource-metadata.js';
