// Compile-time proofs, checked by `npm run typecheck`: the clients users already have fit the
// replay stores as they are, without casts.
import Database from 'better-sqlite3';
import { expectTypeOf } from 'expect-type';
import { Cluster, Redis } from 'ioredis';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import {
  postgresReplayStore,
  redisReplayStore,
  sqliteReplayStore,
  type RedisReplayClient,
  type ReplayStore,
} from './index.js';

expectTypeOf(sqliteReplayStore(new Database('replay.db'))).toEqualTypeOf<ReplayStore>();
expectTypeOf(sqliteReplayStore(new DatabaseSync('replay.db'))).toEqualTypeOf<ReplayStore>();
expectTypeOf(redisReplayStore(new Redis())).toEqualTypeOf<ReplayStore>();
expectTypeOf(redisReplayStore(new Cluster([]))).toEqualTypeOf<ReplayStore>();
expectTypeOf(postgresReplayStore(new pg.Pool())).toEqualTypeOf<ReplayStore>();
expectTypeOf(postgresReplayStore(new pg.Client())).toEqualTypeOf<ReplayStore>();

// node-redis v4's `set(key, value, { PX, NX })`, through the adapter line the JSDoc gives.
declare const nodeRedis: {
  set(key: string, value: string, options?: { PX?: number; NX?: true }): Promise<string | null>;
};
const adapted: RedisReplayClient = {
  set: (key, value, _px, ms) => nodeRedis.set(key, value, { PX: ms, NX: true }),
};
expectTypeOf(redisReplayStore(adapted)).toEqualTypeOf<ReplayStore>();

// A client whose `set` takes no PX and NX is refused.
declare const other: { set(key: string, value: string, options: { ttl: number }): Promise<null> };
// @ts-expect-error: see above
redisReplayStore(other);
