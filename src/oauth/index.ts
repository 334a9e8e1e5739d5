export {
  authorizationServer,
  AuthorizationServer,
  type AuthorizationServerMetadata,
  type AuthorizationServerOptions,
} from './authorization-server.js';
export {
  IntrospectionBearer,
  type IntrospectionBearerOptions,
  type IntrospectionBearerSettings,
  type IntrospectionMap,
} from './introspection-bearer.js';
export type { IntrospectionClientAuthentication } from './introspect-token.js';
export type { IntrospectionAnswer } from './judge-introspection.js';
export {
  protectedResource,
  ProtectedResource,
  RESOURCE_METADATA_PATH,
  type ProtectedResourceMetadata,
  type ProtectedResourceOptions,
} from './protected-resource.js';
export type { Possession } from './confirmation.js';
