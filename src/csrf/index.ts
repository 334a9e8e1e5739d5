export type { CsrfVerdict, CsrfVerifier } from '../core/authenticate.js';
export { isTrustedOrigin, normalizeOrigins } from './check-origin.js';
export { clearCsrfCookie, csrfCookie, type CsrfCookieOptions } from './csrf-cookie.js';
export {
  createCsrfVerifier,
  type CsrfOptions,
  type CsrfProtection,
  type IssuedCsrfToken,
} from './csrf-protection.js';
export { issueCsrfToken, verifyCsrfToken, type CsrfSecret } from './csrf-token.js';
