export {
  exceptionHandler,
  vouchErrorHandler,
  type ExceptionHandler,
  type ExceptionHandlerEntry,
  type VouchErrorHandlerOptions,
} from './error-handler.js';
export type { ErrorClass } from '../internal/handler-for.js';
export { requestView, type HonoRequestView } from './request-view.js';
export { requireAuth, type AuthEnv, type RequireAuthOptions } from './require-auth.js';
export { vouchResponse } from './vouch-response.js';
