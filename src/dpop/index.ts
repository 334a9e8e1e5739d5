export { DPOP_ALGORITHMS } from './dpop-algorithms.js';
export { DPoPBearer, type DPoPBearerOptions } from './dpop-bearer.js';
export type { DPoPNonceOptions } from './dpop-nonces.js';
export type { DPoPTokenVerifier } from './dpop-token-verifier.js';
export type { PublicUrlSource } from './public-url-source.js';
export {
  verifyDPoPProof,
  type DPoPProofExpectations,
  type InvalidDPoPProof,
  type ValidDPoPProof,
} from './verify-dpop-proof.js';
export { memoryReplayStore, type MemoryReplayStoreOptions } from './memory-replay-store.js';
export {
  postgresReplayStore,
  type PostgresReplayPool,
  type PostgresReplayStoreOptions,
} from './postgres-replay-store.js';
export {
  redisReplayStore,
  type RedisReplayClient,
  type RedisReplayStoreOptions,
} from './redis-replay-store.js';
export type { ReplayStore } from './replay-store.js';
export {
  sqliteReplayStore,
  type SqliteReplayDatabase,
  type SqliteReplayStoreOptions,
} from './sqlite-replay-store.js';
export type { Possession } from '../oauth/confirmation.js';
