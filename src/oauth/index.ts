export { DPOP_ALGORITHMS } from '../dpop/dpop-algorithms.js';
export { DPoPBearer, type DPoPBearerOptions } from '../dpop/dpop-bearer.js';
export type { DPoPNonceOptions } from '../dpop/dpop-nonces.js';
export type { DPoPTokenVerifier } from '../dpop/dpop-token-verifier.js';
export type { PublicUrlSource } from '../dpop/public-url-source.js';
export {
  verifyDPoPProof,
  type DPoPProofExpectations,
  type InvalidDPoPProof,
  type ValidDPoPProof,
} from '../dpop/verify-dpop-proof.js';
export {
  authorizationServer,
  AuthorizationServer,
  type AuthorizationServerMetadata,
  type AuthorizationServerOptions,
} from './authorization-server.js';
export { memoryReplayStore, type MemoryReplayStoreOptions } from '../dpop/memory-replay-store.js';
export {
  postgresReplayStore,
  type PostgresReplayPool,
  type PostgresReplayStoreOptions,
} from '../dpop/postgres-replay-store.js';
export {
  redisReplayStore,
  type RedisReplayClient,
  type RedisReplayStoreOptions,
} from '../dpop/redis-replay-store.js';
export type { ReplayStore } from '../dpop/replay-store.js';
export {
  sqliteReplayStore,
  type SqliteReplayDatabase,
  type SqliteReplayStoreOptions,
} from '../dpop/sqlite-replay-store.js';
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
