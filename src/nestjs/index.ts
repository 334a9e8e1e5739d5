export { Auth, type AuthOptions } from './auth.js';
export {
  exceptionHandler,
  type ExceptionHandler,
  type ExceptionHandlerEntry,
} from './exception-filter.js';
export type { ErrorClass } from '../internal/handler-for.js';
export { authOf, Principal } from './principal.js';
export type { NestRequestView } from './request-view.js';
export { serveResourceMetadata } from './resource-metadata.js';
export { Vouch, type VouchModuleOptions } from './vouch.js';
export { VouchModule } from './vouch-module.js';
export { documentSecurity } from './document-security.js';
export { chainRequestInterceptors } from '../openapi/chain-request-interceptors.js';
export {
  csrfRequestInterceptor,
  type AsyncRequestInterceptor,
  type CsrfNames,
} from '../openapi/csrf-request-interceptor.js';
export { senderConstrainedAuthorization } from '../openapi/sender-constrained-authorization.js';
export { dpopRequestInterceptor } from '../openapi/dpop-request-interceptor.js';
export { persistTokensOnly, type SwaggerUiPlugin } from '../openapi/persist-tokens-only.js';
