export { clientErrorHandler } from './client-error-handler.js';
export {
  exceptionHandler,
  createErrorHandler,
  type ErrorClass,
  type ExceptionHandler,
  type ExceptionHandlerEntry,
} from './exception-handlers.js';
export { vouch, winnerOf, type VouchOptions } from './plugin.js';
export { serveResourceMetadata } from './resource-metadata.js';
export { routeAuthOf } from './route-auth.js';
export { router, type RouterOptions } from './router.js';
export { sendVouchError } from './send-vouch-error.js';
export type { VouchDecoration } from './types.js';
export { authOf, withAuth, type AuthedHandler, type AuthedRequest } from './with-auth.js';
