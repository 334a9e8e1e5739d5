// The apps `npm run bench` times: Fastify with each vouch route beside its peer, each in its own
// encapsulated context so that no route pays for another's plugin; Express with passport and with
// vouch, alone and in an app of some size; Hono with vouch; Nest on each of its platforms with
// vouch and with @nestjs/passport (bench/nest-apps.ts). Every route answers the same body; a
// check written by hand uses vouch's constant-time matcher, so that only the machinery around the
// check differs. The OAuth routes check tokens of a real authorization server (token-issuer.ts),
// one route DPoP-bound tokens and plain JWTs alike.
import fastifyAuth from '@fastify/auth';
import basicAuth from '@fastify/basic-auth';
import bearerAuth from '@fastify/bearer-auth';
import express from 'express';
import Fastify, { type FastifyInstance, type onRequestHookHandler } from 'fastify';
import { Hono, type Context } from 'hono';
import type { JSONWebKeySet } from 'jose';
import { Passport } from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { APIKeyHeader, HttpBasic, HttpBearer, timingSafeMatcher } from '../src/index.js';
import { requireAuth as expressAuth } from '../src/express/index.js';
import { vouch } from '../src/fastify/index.js';
import { requireAuth as honoAuth } from '../src/hono/index.js';
import { DPoPBearer, memoryReplayStore } from '../src/dpop/index.js';
import { JwtBearer } from '../src/jwt/index.js';
import { IntrospectionBearer, protectedResource } from '../src/oauth/index.js';
import type { ProofKey } from '../test/helpers/dpop-proof.js';
import type { ProofPool } from './dpop-proofs.js';

export const TOKEN = 'bnch_5c1f0e8a9d2b47c6a3e1f0d9b8c7a6e5d4c3b2a1';
export const API_KEY = 'key_0f9e8d7c6b5a49382716a5b4c3d2e1f0';
const USER = 'bench';
const PASSWORD = 'correct-horse-battery-staple';
/** What every route answers, serialised. */
export const BODY = '{"ok":true}';

export const bearerHeaders: Readonly<Record<string, string>> = { authorization: `Bearer ${TOKEN}` };
const basicHeaders = {
  authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`,
};
const keyHeaders = { 'x-api-key': API_KEY };

/** Which server a route is on; each has its own no-auth baseline. */
export type ServerName = 'fastify' | 'express' | 'hono' | 'nest' | 'nestFastify';

/**
 * A timed route; its credential is the header without which it must answer 401, but for the
 * baselines, under /noauth, which are sent it all the same.
 */
const route = (server: ServerName, path: string, label: string, headers = bearerHeaders) => {
  const credential = path.startsWith('/noauth') ? undefined : Object.keys(headers)[0];
  return { server, path, label, headers, body: BODY, credential };
};

/** The routes, each server's baseline first. */
export const routes = {
  fastify: route('fastify', '/noauth', 'Fastify, no auth'),
  bearer: route('fastify', '/vouch/bearer', 'vouch HttpBearer'),
  bearerPeer: route('fastify', '/peer/bearer', '@fastify/bearer-auth'),
  basic: route('fastify', '/vouch/basic', 'vouch HttpBasic', basicHeaders),
  basicPeer: route('fastify', '/peer/basic', '@fastify/basic-auth', basicHeaders),
  key: route('fastify', '/vouch/key', 'vouch APIKeyHeader', keyHeaders),
  keyPeer: route('fastify', '/peer/key', 'onRequest hook by hand', keyHeaders),
  anyOf: route('fastify', '/vouch/anyof', 'vouch [APIKeyHeader, HttpBearer]'),
  anyOfPeer: route('fastify', '/peer/anyof', "@fastify/auth, relation 'or'"),
  express: route('express', '/noauth', 'Express, no auth'),
  passport: route('express', '/passport', 'passport-http-bearer'),
  expressBearer: route('express', '/vouch/bearer', 'vouch HttpBearer on Express'),
  express45: route('express', '/noauth/reports/7', 'Express, 45 routes, no auth'),
  express45Bearer: route('express', '/api/reports/7', 'vouch on Express, 45 routes'),
  hono: route('hono', '/noauth', 'Hono, no auth'),
  // What any middleware costs there: the baseline's one handler takes Hono's fast path.
  honoMiddleware: route('hono', '/noauth/middleware', 'Hono, an empty middleware'),
  honoBearer: route('hono', '/vouch/bearer', 'vouch HttpBearer on Hono'),
  // Each of a Nest server's three routes is an app of its own, the path's first segment its name.
  nest: route('nest', '/noauth', 'Nest, no auth'),
  nestBearer: route('nest', '/vouch/bearer', 'vouch HttpBearer on Nest'),
  nestPassport: route('nest', '/passport', '@nestjs/passport on Nest'),
  nestFastify: route('nestFastify', '/noauth', 'Nest on Fastify, no auth'),
  nestFastifyBearer: route('nestFastify', '/vouch/bearer', 'vouch HttpBearer on Nest on Fastify'),
  nestFastifyPassport: route('nestFastify', '/passport', '@nestjs/passport on Nest on Fastify'),
};

/**
 * What the table judges: `first` must reach `times` × the requests/s of `second`; without
 * `times`, their ratio is only printed. Both are routes of one server: a ratio across engines
 * would mostly measure the engines.
 */
export const targets = [
  { first: routes.bearer, second: routes.bearerPeer, times: 1 },
  { first: routes.basic, second: routes.basicPeer, times: 1 },
  { first: routes.key, second: routes.keyPeer, times: 1 },
  { first: routes.anyOf, second: routes.anyOfPeer, times: 1 },
  { first: routes.express45Bearer, second: routes.express45, times: 0.9 },
  { first: routes.honoBearer, second: routes.hono, times: 0.9 },
  // Any middleware takes Hono off its one-handler path: vouch's beside an empty one (issue #30).
  { first: routes.honoBearer, second: routes.honoMiddleware, times: 0.95 },
  { first: routes.nestBearer, second: routes.nest, times: 0.9 },
  { first: routes.nestFastifyBearer, second: routes.nestFastify, times: 0.9 },
  // Beside the peer each engine's users have today: a ratio, no target (issues #29 and #30).
  { first: routes.expressBearer, second: routes.passport },
  { first: routes.nestBearer, second: routes.nestPassport },
  { first: routes.nestFastifyBearer, second: routes.nestFastifyPassport },
] as const;

/** How long the OAuth tokens live, and an introspection answer is reused: longer than any run. */
export const OAUTH_LIFETIME_SECONDS = 2 * 60 * 60;

/** The environment variable that hands the Fastify process its {@link OAuthSettings}, as JSON. */
export const OAUTH_ENV = 'BENCH_OAUTH';

/** What the Fastify app needs to check the tokens of the bench's authorization server. */
export interface OAuthSettings {
  /** The authorization server's issuer identifier, the `iss` of its tokens. */
  readonly issuer: string;
  /** Its public keys, given rather than fetched: no JWKS refresh can fall in a timed run. */
  readonly jwks: JSONWebKeySet;
  readonly introspectionEndpoint: string;
  /** The confidential client the resource introspects as. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The resource identifier whose tokens are JWTs. */
  readonly jwtResource: string;
  /** The resource identifier whose tokens are opaque, hence introspected. */
  readonly opaqueResource: string;
}

/** The {@link OAuthSettings} in `env`, the Fastify process's environment. */
export function oauthSettings(env: Readonly<Record<string, string | undefined>>): OAuthSettings {
  const json = env[OAUTH_ENV];
  if (json === undefined) throw new Error(`${OAUTH_ENV}: the authorization server's settings`);
  return JSON.parse(json) as OAuthSettings;
}

/** A token of each kind, from the authorization server's token endpoint. */
export interface OAuthTokens {
  readonly jwt: string;
  readonly opaque: string;
  /** A JWT for the same resource, bound to {@link OAuthTokens.dpopKey} (`cnf.jkt`). */
  readonly dpop: string;
  /** The client's DPoP key, which signs every proof sent with {@link OAuthTokens.dpop}. */
  readonly dpopKey: ProofKey;
}

const oauthPaths = {
  jwt: '/vouch/jwt',
  jwtResource: '/vouch/jwt-resource',
  introspection: '/vouch/introspection',
  dpop: '/vouch/dpop',
} as const;

/**
 * The `htu` of the DPoP route's proofs: `DPoPBearer` takes the public origin of the resource
 * identifier `resource` (whatever port the server listens on), and the request's path.
 */
export const dpopUrl = (resource: string): string => new URL(oauthPaths.dpop, resource).href;

/**
 * Proofs the DPoP route's replay memory holds: each one of a run stays there to its end. Far
 * above what a run sends; `npm run bench` checks that its pool does not exceed it.
 */
export const DPOP_REPLAY_ENTRIES = 5_000_000;

/**
 * The OAuth routes, on Fastify, each with the token it is timed with; one JWT serves the first
 * two and the DPoP route's Bearer shot. The DPoP shot takes a new proof from `proofs` each
 * request, and must answer 401 without it.
 */
export function oauthRoutes(tokens: OAuthTokens, proofs: ProofPool) {
  const jwt = { authorization: `Bearer ${tokens.jwt}` };
  const opaque = { authorization: `Bearer ${tokens.opaque}` };
  const dpop = route('fastify', oauthPaths.dpop, 'vouch DPoPBearer, DPoP', {
    authorization: `DPoP ${tokens.dpop}`,
  });
  return {
    jwt: route('fastify', oauthPaths.jwt, 'vouch JwtBearer', jwt),
    jwtResource: route(
      'fastify',
      oauthPaths.jwtResource,
      'vouch JwtBearer, protected resource',
      jwt,
    ),
    introspection: route(
      'fastify',
      oauthPaths.introspection,
      'vouch IntrospectionBearer, warm cache',
      opaque,
    ),
    dpop: { ...dpop, credential: 'dpop', fresh: { header: 'dpop', values: proofs } },
    dpopBearer: route('fastify', oauthPaths.dpop, 'vouch DPoPBearer, Bearer', jwt),
  };
}

/** The OAuth routes, as {@link oauthRoutes} makes them. */
export type OAuthRoutes = ReturnType<typeof oauthRoutes>;

/** What the table judges of the OAuth routes (issue #27), as {@link targets}. */
export function oauthTargets(oauth: OAuthRoutes) {
  return [
    { first: oauth.jwtResource, second: oauth.jwt, times: 0.9 },
    { first: oauth.introspection, second: oauth.jwtResource, times: 0.9 },
    // A ratio only: what DPoP adds is judged in units of a proof's check (dpopCostTargets).
    { first: oauth.dpop, second: oauth.dpopBearer },
  ] as const;
}

/**
 * What DPoP may cost (issue #28): the server time a request with a proof adds to the same route's
 * Bearer request, round by round, in units of one proof signature check timed in this process
 * (bench/proof-check.ts). One check is the floor; a server pays it with colder caches than a loop
 * does, and the proof's decoding, hashes, URL and replay record beside it: at most 2.
 */
export function dpopCostTargets(oauth: OAuthRoutes) {
  return [{ first: oauth.dpop, second: oauth.dpopBearer, times: 2 }] as const;
}

export const caller = { id: USER };
export const isToken = timingSafeMatcher(TOKEN);
const isKey = timingSafeMatcher(API_KEY);
const isUser = timingSafeMatcher(USER);
const isPassword = timingSafeMatcher(PASSWORD);
/** Both compared, always: the time taken does not tell which one was wrong. */
const isLogin = (user: string, password: string) =>
  [isUser(user), isPassword(password)].every(Boolean);
const unauthorized = new Error('Unauthorized');
const handler = async () => ({ ok: true });
export const bearer = new HttpBearer({ tokens: new Map([[TOKEN, caller]]) });
const clientKey = new APIKeyHeader({ paramName: 'X-Client-Key', keys: [[API_KEY, caller]] });

/**
 * The Fastify app: the baseline, each vouch route and its peer, and the OAuth routes checking the
 * tokens of the authorization server `oauth` describes. Not listening yet.
 */
export async function fastifyApp(oauth: OAuthSettings): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get(routes.fastify.path, handler);

  await app.register(async (scope) => {
    await scope.register(vouch, { csrf: false });
    const basic = new HttpBasic({
      authenticate: (_request, user, password) => (isLogin(user, password) ? caller : undefined),
    });
    scope.get(routes.bearer.path, { auth: bearer }, handler);
    scope.get(routes.basic.path, { auth: basic }, handler);
    const key = new APIKeyHeader({ paramName: 'X-API-Key', keys: [[API_KEY, caller]] });
    scope.get(routes.key.path, { auth: key }, handler);
    scope.get(routes.anyOf.path, { auth: [clientKey, bearer] }, handler);
  });

  await app.register(async (scope) => {
    await scope.register(bearerAuth, { keys: new Set([TOKEN]) });
    scope.get(routes.bearerPeer.path, handler);
  });
  await app.register(async (scope) => {
    await scope.register(basicAuth, {
      authenticate: true,
      validate: (user, password, _request, _reply, done) => {
        done(isLogin(user, password) ? undefined : unauthorized);
      },
    });
    scope.get(routes.basicPeer.path, { onRequest: scope.basicAuth }, handler);
  });
  // It answers what vouch answers an API key: the caller's own, kept from shared caches.
  const keyHook: onRequestHookHandler = (request, reply, done) => {
    const key = request.headers['x-api-key'];
    if (typeof key === 'string' && isKey(key)) {
      void reply.header('cache-control', 'private');
      done();
    } else void reply.code(401).send({ detail: 'Unauthorized' });
  };
  app.get(routes.keyPeer.path, { onRequest: keyHook }, handler);
  await app.register(async (scope) => {
    await scope.register(bearerAuth, { keys: new Set([TOKEN]), addHook: false });
    await scope.register(fastifyAuth);
    const clientKey: onRequestHookHandler = (request, _reply, done) => {
      const key = request.headers['x-client-key'];
      done(typeof key === 'string' && isKey(key) ? undefined : unauthorized);
    };
    const onRequest = scope.auth([clientKey, scope.verifyBearerAuth!], { relation: 'or' });
    scope.get(routes.anyOfPeer.path, { onRequest }, handler);
  });
  await app.register(async (scope) => oauthScope(scope, oauth));
  await app.ready();
  return app;
}

/**
 * The OAuth routes, in a context of their own: `JwtBearer` as configured before protected
 * resources, then for one (RFC 9068: `typ` at+jwt, one audience, `sub` and `client_id`),
 * `IntrospectionBearer` reusing each answer for the whole run, and `[DPoPBearer, JwtBearer]`
 * over that protected resource's `JwtBearer`: DPoP-bound tokens with a proof, or unbound ones.
 */
async function oauthScope(scope: FastifyInstance, oauth: OAuthSettings): Promise<void> {
  await scope.register(vouch, { csrf: false });
  const { issuer, jwks } = oauth;
  const resource = (identifier: string) =>
    protectedResource({ resource: identifier, authorizationServers: [issuer] });
  const jwt = new JwtBearer({
    keys: jwks,
    issuer,
    audience: oauth.jwtResource,
    algorithms: ['RS256'],
  });
  const jwtResource = new JwtBearer({
    resource: resource(oauth.jwtResource),
    issuers: [{ issuer, keys: jwks }],
    algorithms: ['RS256'],
  });
  const introspection = new IntrospectionBearer({
    resource: resource(oauth.opaqueResource),
    introspectionEndpoint: oauth.introspectionEndpoint,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    cacheMaxAge: OAUTH_LIFETIME_SECONDS * 1000,
  });
  // For the bench only: every proof of a run is signed before it, so a proof must stay fresh, and
  // its jti remembered, until the run ends (a service keeps 60 s and 100,000 proofs).
  const dpop = new DPoPBearer({
    tokens: jwtResource,
    maxAge: OAUTH_LIFETIME_SECONDS,
    replay: memoryReplayStore({ maxEntries: DPOP_REPLAY_ENTRIES }),
  });
  scope.get(oauthPaths.jwt, { auth: jwt }, handler);
  scope.get(oauthPaths.jwtResource, { auth: jwtResource }, handler);
  scope.get(oauthPaths.introspection, { auth: introspection }, handler);
  scope.get(oauthPaths.dpop, { auth: [dpop, jwtResource] }, handler);
}

export const send: express.RequestHandler = (_request, response) => response.json({ ok: true });

/** Twenty-one routes, as an API over a few resources has them; `auth` guards the last one. */
function resources(...auth: express.RequestHandler[]): express.Router {
  const router = express.Router();
  for (const name of ['users', 'orders', 'invoices', 'products']) {
    router.get(`/${name}`, send).post(`/${name}`, send);
    router.get(`/${name}/:id`, send).put(`/${name}/:id`, send).delete(`/${name}/:id`, send);
  }
  router.get('/reports/:id', ...auth, send);
  return router;
}

/**
 * The Express 5 app: its baseline, Bearer through passport as passport's docs show it and
 * through vouch; then the same routes twice, open and behind vouch, where vouch reads the stacks
 * of an app of 45 routes, a declaration on the app and one on the route.
 */
export function expressApp(): express.Express {
  const app = express();
  // Fastify sends neither header: the two frameworks answer the same bytes.
  app.disable('x-powered-by');
  app.set('etag', false);
  const passport = new Passport();
  passport.use(
    new BearerStrategy((token, done) => {
      done(null, isToken(token) ? caller : false);
    }),
  );
  app.get(routes.express.path, send);
  const viaPassport = passport.authenticate('bearer', { session: false }) as express.RequestHandler;
  app.get(routes.passport.path, viaPassport, send);
  app.get(routes.expressBearer.path, expressAuth(bearer), send);
  app.use('/noauth', resources());
  app.use(expressAuth([clientKey, bearer]));
  app.use('/api', resources(expressAuth(bearer)));
  return app;
}

/** The Hono app, served by @hono/node-server: its baseline and Bearer through vouch. */
export function honoApp(): Hono {
  const app = new Hono();
  const json = (c: Context) => c.json({ ok: true });
  app.get(routes.hono.path, json);
  app.get(routes.honoMiddleware.path, (_c, next) => next(), json);
  app.get(routes.honoBearer.path, honoAuth(bearer), json);
  return app;
}
