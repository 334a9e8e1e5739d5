// Compile-time proofs, checked by `npm run typecheck`: request.auth is typed from the
// authenticator that declared it, wherever TypeScript can carry it.
import Fastify, { type FastifyRequest } from 'fastify';
import { expectTypeOf } from 'expect-type';
import {
  allOf,
  APIKeyHeader,
  authFunction,
  HttpBasic,
  HttpBearer,
  MemorySessionStore,
  SessionAuth,
  type AuthOf,
  type AuthRequest,
} from '../../src/index.js';
import { authOf, router, vouch, withAuth } from '../../src/fastify/index.js';
import { authOf as honoAuthOf } from '../../src/hono/index.js';
import { authOf as expressAuthOf } from '../../src/express/index.js';
import type { Context } from 'hono';
import type { Request } from 'express';

interface User {
  id: number;
  name: string;
}
interface Application {
  name: string;
}

const bearer = new HttpBearer({
  authenticate: async (_request, token): Promise<User | undefined> =>
    token === 'x' ? { id: 1, name: 'ann' } : undefined,
});
const basic = new HttpBasic({ authenticate: (_request, username) => username });
const key = new APIKeyHeader({
  paramName: 'X-API-Key',
  authenticate: (_request, k): Application | null => (k === 'k' ? { name: 'app' } : null),
});
const session = new SessionAuth({ store: new MemorySessionStore<User>() });
const ip = (request: FastifyRequest) => (request.ip.startsWith('127.') ? request.ip : false);

// Static credentials: request.auth is the type of the values they map to.
const ciToken = new HttpBearer({ tokens: new Map([['ci-token', { id: 3, name: 'ci' }]]) });
const partnerKey = new APIKeyHeader({ keys: [['partner-key', { name: 'partner' }]] as const });

class TokenAuth extends HttpBearer<User> {
  override authenticate(_request: AuthRequest, token: string): User | undefined {
    return token === 'y' ? { id: 2, name: 'bob' } : undefined;
  }
}

// The hook's request is the Fastify request once vouch/fastify is imported.
expectTypeOf<AuthRequest>().toEqualTypeOf<FastifyRequest>();

// AuthOf follows the declaration.
expectTypeOf<AuthOf<typeof bearer>>().toEqualTypeOf<User>();
expectTypeOf(basic).toEqualTypeOf<HttpBasic<string>>();
expectTypeOf<AuthOf<typeof basic>>().toEqualTypeOf<string>();
expectTypeOf<AuthOf<typeof key>>().toEqualTypeOf<Application>();
expectTypeOf<AuthOf<typeof session>>().toEqualTypeOf<User>();
expectTypeOf<AuthOf<TokenAuth>>().toEqualTypeOf<User>();
expectTypeOf(ciToken).toEqualTypeOf<HttpBearer<{ id: number; name: string }>>();
expectTypeOf(partnerKey).toEqualTypeOf<APIKeyHeader<{ readonly name: 'partner' }>>();
expectTypeOf<AuthOf<typeof ip>>().toEqualTypeOf<string>();
expectTypeOf<AuthOf<[typeof bearer, typeof key]>>().toEqualTypeOf<User | Application>();
expectTypeOf<AuthOf<ReturnType<typeof allOf<[typeof bearer, typeof key]>>>>().toEqualTypeOf<
  [User, Application]
>();
expectTypeOf<AuthOf<null>>().toEqualTypeOf<undefined>();

const app = Fastify();
await app.register(vouch, { auth: bearer, csrf: false });

app.get(
  '/me',
  withAuth(bearer, async (request) => {
    expectTypeOf(request.auth).toEqualTypeOf<User>();
    return request.auth.name;
  }),
);
app.get(
  '/either',
  withAuth([key, ip], async (request) => {
    expectTypeOf(request.auth).toEqualTypeOf<Application | string>();
  }),
);
app.get(
  '/both',
  withAuth(allOf(bearer, key), async (request) => {
    expectTypeOf(request.auth).toEqualTypeOf<[User, Application]>();
  }),
);
app.get(
  '/params/:id',
  withAuth<typeof bearer, { Params: { id: string } }>(bearer, async (request) => {
    expectTypeOf(request.params.id).toEqualTypeOf<string>();
    expectTypeOf(request.auth).toEqualTypeOf<User>();
  }),
);
app.get('/plain', async (request) => {
  // Without a typed declaration, auth is unknown, never any.
  expectTypeOf(request.auth).toEqualTypeOf<unknown>();
  expectTypeOf(authOf(request, bearer)).toEqualTypeOf<User>();
  expectTypeOf(authOf(request, [bearer, session])).toEqualTypeOf<User>();
});
// Hono's and Express's authOf type the value the same way.
declare const c: Context;
declare const req: Request;
expectTypeOf(honoAuthOf(c, [bearer, session])).toEqualTypeOf<User>();
expectTypeOf(honoAuthOf(c, allOf(bearer, key))).toEqualTypeOf<[User, Application]>();
expectTypeOf(expressAuthOf(req, key)).toEqualTypeOf<Application>();

// auth on routes, routers and mounts is checked.
app.get('/open', { auth: null }, async () => 'ok');
// @ts-expect-error a string is not an auth value
app.get('/bad', { auth: 'bearer' }, async () => 'no');
await app.register(
  router({ auth: key }, async (r) => {
    r.get('/', async () => 'events');
  }),
  { prefix: '/events', auth: [key, bearer] },
);
// @ts-expect-error csrf is a boolean on a route
app.post('/x', { csrf: 'no' }, async () => 'no');

// Hooks are checked against their kind's signature.
// @ts-expect-error Basic hooks receive strings
new HttpBasic({ authenticate: (_request, username: number) => username });
authFunction((request) => request.ip, { name: 'ip' });
