export { AllOf, allOf, type AuthMember } from './core/all-of.js';
export {
  resolveAuth,
  type AuthItem,
  type AuthOf,
  type AuthSpec,
  type Requirement,
} from './core/auth-spec.js';
export {
  authenticate,
  type AuthenticateOptions,
  type AuthFailure,
  type AuthResult,
  type AuthSuccess,
  type CsrfVerdict,
  type CsrfVerifier,
} from './core/authenticate.js';
export {
  Authenticator,
  DEFAULT_MAX_CREDENTIAL_LENGTH,
  type AuthenticatorOptions,
} from './core/authenticator.js';
export { CredentialAuthenticator } from './core/credential-authenticator.js';
export {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  ConfigurationError,
  CsrfError,
  errorCodes,
  InsufficientScopeError,
  StoreUnavailableError,
  VouchError,
} from './core/errors.js';
export {
  authFunction,
  FunctionAuthenticator,
  type AuthFunction,
  type AuthFunctionOptions,
} from './core/function-authenticator.js';
export {
  ABSENT,
  AMBIGUOUS,
  isAccepted,
  refusal,
  REJECTED,
  type Absent,
  type Accepted,
  type Ambiguous,
  type Awaitable,
  type Extraction,
  type Nothing,
  type Outcome,
  type Rejected,
} from './core/outcome.js';
export type { OperationAuth } from './core/operation-auth.js';
export type {
  AuthRequest,
  ConnectionView,
  HeaderMap,
  Register,
  RequestView,
} from './core/request.js';
export { grantedScopes, isScopeToken } from './core/scopes.js';
export type { SecurityScheme } from './core/security-scheme.js';
export { timingSafeEqual } from './core/timing-safe-equal.js';
export { timingSafeMatcher, type SecretMatcher } from './core/timing-safe-matcher.js';
export {
  APIKey,
  type APIKeyLocation,
  type APIKeyOptions,
  type KeyHook,
} from './api-key/api-key.js';
export { APIKeyCookie } from './api-key/api-key-cookie.js';
export { APIKeyHeader } from './api-key/api-key-header.js';
export { APIKeyQuery } from './api-key/api-key-query.js';
export { HttpBasic, type BasicHook, type HttpBasicOptions } from './http/http-basic.js';
export { HttpBearer, type BearerHook, type HttpBearerOptions } from './http/http-bearer.js';
export {
  OAuth2PasswordBearer,
  type OAuth2PasswordBearerOptions,
} from './http/oauth2-password-bearer.js';
export {
  isB64token,
  isScheme,
  parseAuthorization,
  type AuthorizationParts,
} from './http/authorization.js';
export {
  encodeBasicCredentials,
  parseBasicCredentials,
  type BasicCredentials,
} from './http/parse-basic-credentials.js';
export { edge, type CertificateSource, type Edge, type EdgeOptions } from './edge/edge.js';
export type {
  ClientCertificate,
  FoundCertificate,
  UnusableCertificate,
} from './edge/client-certificate.js';
export type { TrustedProxies } from './edge/trusted-proxies.js';
export {
  MemorySessionStore,
  type MemorySessionStoreOptions,
} from './session/memory-session-store.js';
export { SessionAuth, type SessionAuthOptions } from './session/session-auth.js';
export type { SessionStore } from './session/session-store.js';
