// Compile-time proofs, checked by `npm run typecheck`: request.auth is what the token verifier
// makes of a token (a JwtBearer's payload or mapped value, an IntrospectionBearer's answer), and
// a verifier is required.
import Fastify from 'fastify';
import { expectTypeOf } from 'expect-type';
import type { JWTPayload } from 'jose';
import type { AuthOf } from '../index.js';
import { vouch, withAuth } from '../fastify/index.js';
import { JwtBearer } from '../jwt/index.js';
import { DPoPBearer } from './index.js';
import {
  IntrospectionBearer,
  protectedResource,
  type IntrospectionAnswer,
} from '../oauth/index.js';

const api = protectedResource({
  resource: 'https://api.example/mcp',
  authorizationServers: ['https://login.example'],
});
const jwt = new JwtBearer({ resource: api, algorithms: ['RS256'] });
const mapped = new JwtBearer({
  resource: api,
  algorithms: ['RS256'],
  map: (payload) => ({ id: String(payload.sub) }),
});
const introspected = new IntrospectionBearer({ resource: api, clientId: 'rs', clientSecret: 's' });

const dpop = new DPoPBearer({ tokens: jwt });
expectTypeOf<AuthOf<typeof dpop>>().toEqualTypeOf<JWTPayload>();
expectTypeOf<AuthOf<DPoPBearer<{ id: string }>>>().toEqualTypeOf<{ id: string }>();
expectTypeOf(new DPoPBearer({ tokens: mapped })).toEqualTypeOf<DPoPBearer<{ id: string }>>();
expectTypeOf(new DPoPBearer({ tokens: introspected })).toEqualTypeOf<
  DPoPBearer<IntrospectionAnswer>
>();

// @ts-expect-error: a verifier is required
new DPoPBearer({});
// @ts-expect-error: a Bearer without verifyToken cannot check a bound token
new DPoPBearer({ tokens: { scopesOf: () => [] } });

const app = Fastify();
await app.register(vouch, { csrf: false });
app.get(
  '/mcp',
  withAuth([dpop, jwt], async (request) => {
    expectTypeOf(request.auth).toEqualTypeOf<JWTPayload>();
    return {};
  }),
);
