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
export { csrfRequestInterceptor, type CsrfNames } from '../openapi/csrf-request-interceptor.js';
export { persistTokensOnly, type SwaggerUiPlugin } from '../openapi/persist-tokens-only.js';
