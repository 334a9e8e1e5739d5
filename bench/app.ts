import bearerAuth from '@fastify/bearer-auth';
import Fastify, { type FastifyInstance } from 'fastify';
import { APIKeyHeader, APIKeyQuery, HttpBearer, timingSafeMatcher } from '../src/index.js';
import { vouch } from '../src/fastify/index.js';
import { timeHooks, type HookTimer } from './hook-timer.js';
import { selectFrom } from './options.js';

/** The one Bearer token every authenticated route accepts. */
export const BENCH_TOKEN = 'bnch_5c1f0e8a9d2b47c6a3e1f0d9b8c7a6e5d4c3b2a1';
/** The one API key `/apikey` accepts. */
export const BENCH_API_KEY = 'key_0f9e8d7c6b5a49382716a5b4c3d2e1f0';

/**
 * The headers of every timed request, on every route, the no-auth one included: request sizes
 * and header parsing are the same everywhere, so only the authentication differs.
 */
export const benchHeaders: Readonly<Record<string, string>> = {
  authorization: `Bearer ${BENCH_TOKEN}`,
  'x-api-key': BENCH_API_KEY,
};

/**
 * What a route is compared as: the baseline, the baseline's twin (what the method itself reads
 * as a difference), an empty hook or a check by hand (the floor), one authenticator, or a list.
 */
export type RouteKind = 'baseline' | 'control' | 'floor' | 'single' | 'variant' | 'list';

/** A benchmarked route and the credential it needs. */
export interface BenchRoute {
  readonly path: string;
  readonly kind: RouteKind;
  readonly description: string;
  /** The header carrying its credential (`undefined` for the no-auth route). */
  readonly credentialHeader: string | undefined;
}

/**
 * The routes, baseline first. Every path has seven characters and a first letter of its own, so
 * the router walks the same nodes and compares as many characters to find each: routing costs
 * every route alike, and only the authentication differs. (With paths of 5 to 20 characters, two
 * of them sharing a first letter, finding `/bearer` cost 231 instructions more than the
 * baseline's path.)
 */
export const benchRoutes: readonly BenchRoute[] = [
  {
    path: '/noauth',
    kind: 'baseline',
    description: 'vouch registered, auth: null',
    credentialHeader: undefined,
  },
  {
    path: '/sameas',
    kind: 'control',
    description: 'vouch registered, auth: null: the baseline again under another path',
    credentialHeader: undefined,
  },
  {
    path: '/hooked',
    kind: 'floor',
    description: 'auth: null and an onRequest hook that does nothing: what any hook costs',
    credentialHeader: undefined,
  },
  {
    path: '/manual',
    kind: 'floor',
    description: 'auth: null and the same Bearer check written by hand in an onRequest hook',
    credentialHeader: 'authorization',
  },
  {
    path: '/bearer',
    kind: 'single',
    description: 'HttpBearer, static check built in (tokens: a Map of one token)',
    credentialHeader: 'authorization',
  },
  {
    path: '/inhook',
    kind: 'variant',
    description: 'HttpBearer, static check by timingSafeMatcher in its authenticate hook',
    credentialHeader: 'authorization',
  },
  {
    path: '/apikey',
    kind: 'single',
    description: 'APIKeyHeader X-API-Key, static check by timingSafeMatcher',
    credentialHeader: 'x-api-key',
  },
  {
    path: '/listof',
    kind: 'list',
    description: '[APIKeyQuery, APIKeyHeader, HttpBearer]; only the last has a credential',
    credentialHeader: 'authorization',
  },
  {
    path: '/plugin',
    kind: 'single',
    description: '@fastify/bearer-auth, keys: Set of one token',
    credentialHeader: 'authorization',
  },
];

/**
 * The routes named in a `--routes /a,/b` option, in the table's order, with the baseline always
 * first (every figure is relative to it); every route when none are named.
 *
 * @throws Error naming any path that is not a route.
 */
export function selectRoutes(option: string | undefined): readonly BenchRoute[] {
  return selectFrom(benchRoutes, option);
}

/** The body every route answers with. */
export const BENCH_BODY = { ok: true } as const;

const caller = { id: 'bench' } as const;

/** The benchmarked app, and the timer of its routes' hooks when asked for. */
export interface BenchApp {
  readonly app: FastifyInstance;
  readonly hooks: HookTimer | undefined;
}

/**
 * The benchmarked app: one small JSON route per kind of authentication, all in one Fastify
 * instance with vouch registered, so the routes differ only in their `onRequest` work. Never
 * listens; `bench/server.ts` does. With `timeHooks`, each route's `onRequest` hook is timed
 * (`hook-timer.ts`).
 */
export async function buildBenchApp(options: { timeHooks?: boolean } = {}): Promise<BenchApp> {
  const app = Fastify({ logger: false });
  await app.register(vouch, { csrf: false });
  const hooks = options.timeHooks === true ? timeHooks(app) : undefined;

  // Static secrets, prepared once, as vouch's README advises for a token or keys from configuration.
  const isBenchToken = timingSafeMatcher(BENCH_TOKEN);
  const isBenchKey = timingSafeMatcher(BENCH_API_KEY);
  const bearer = new HttpBearer({ tokens: new Map([[BENCH_TOKEN, caller]]) });
  const bearerHook = new HttpBearer({
    authenticate: (_request, token) => (isBenchToken(token) ? caller : undefined),
  });
  const apiKey = new APIKeyHeader({
    paramName: 'X-API-Key',
    authenticate: (_request, key) => (isBenchKey(key) ? caller : undefined),
  });
  // Different names from /apikey's, so the request (which carries X-API-Key) has no credential
  // for the first two: both run, find nothing, and the Bearer token at the end decides.
  const listQuery = new APIKeyQuery({
    paramName: 'api_key',
    authenticate: (_request, key) => (isBenchKey(key) ? caller : undefined),
  });
  const listHeader = new APIKeyHeader({
    paramName: 'X-Client-Key',
    authenticate: (_request, key) => (isBenchKey(key) ? caller : undefined),
  });

  app.get('/noauth', { auth: null }, async () => BENCH_BODY);
  // Declared as /noauth is: any ratio it reads other than 1 is the method's own bias or noise.
  app.get('/sameas', { auth: null }, async () => BENCH_BODY);
  // vouch's own hook is a callback hook too: this is the floor any authentication stands on.
  app.get(
    '/hooked',
    {
      auth: null,
      onRequest: (_request, _reply, done) => {
        done();
      },
    },
    async () => BENCH_BODY,
  );
  // The least a Bearer check can do, with none of the contract's rules (no duplicate-header
  // check, no b64token grammar, no challenge): what vouch's own work is compared with.
  app.get(
    '/manual',
    {
      auth: null,
      onRequest: (request, reply, done) => {
        const header = request.headers.authorization;
        if (header?.startsWith('Bearer ') === true && isBenchToken(header.slice(7))) {
          done();
          return;
        }
        void reply.code(401).send({ detail: 'Unauthorized' });
      },
    },
    async () => BENCH_BODY,
  );
  app.get('/bearer', { auth: bearer }, async () => BENCH_BODY);
  app.get('/inhook', { auth: bearerHook }, async () => BENCH_BODY);
  app.get('/apikey', { auth: apiKey }, async () => BENCH_BODY);
  app.get('/listof', { auth: [listQuery, listHeader, bearerHook] }, async () => BENCH_BODY);

  // The same check done by the official plugin, in its own encapsulated context so that its
  // onRequest hook applies to this route only.
  await app.register(async (child) => {
    await child.register(bearerAuth, { keys: new Set([BENCH_TOKEN]) });
    child.get('/plugin', async () => BENCH_BODY);
  });

  await app.ready();
  return { app, hooks };
}
