// Compile-time proofs, checked by `npm run typecheck`: request.auth is the payload, the type
// given, or what `map` returns; a key source and the checks are required.
import Fastify, { type FastifyRequest } from 'fastify';
import { expectTypeOf } from 'expect-type';
import type { JWTPayload } from 'jose';
import type { AuthOf } from '../index.js';
import { vouch, withAuth } from '../fastify/index.js';
import { JwtBearer } from './index.js';

const checks = {
  jwksUrl: 'https://issuer.example/.well-known/jwks.json',
  issuer: 'https://issuer.example/',
  audience: 'https://api.example/',
  algorithms: ['RS256'],
} as const;

interface Claims extends JWTPayload {
  sub: string;
  tenant: string;
}

const payload = new JwtBearer(checks);
const claims = new JwtBearer<Claims>(checks);
const mapped = new JwtBearer({
  ...checks,
  map: async (token, request) => {
    expectTypeOf(token).toEqualTypeOf<JWTPayload>();
    expectTypeOf(request).toEqualTypeOf<FastifyRequest>();
    return token.sub === undefined ? null : { id: token.sub, scope: token['scope'] };
  },
});

expectTypeOf<AuthOf<typeof payload>>().toEqualTypeOf<JWTPayload>();
expectTypeOf<AuthOf<typeof claims>>().toEqualTypeOf<Claims>();
expectTypeOf(mapped).toEqualTypeOf<JwtBearer<{ id: string; scope: unknown }>>();

const app = Fastify();
await app.register(vouch, { auth: payload, csrf: false });
app.get(
  '/tenant',
  withAuth(claims, async (request) => {
    expectTypeOf(request.auth.tenant).toEqualTypeOf<string>();
    return request.auth.tenant;
  }),
);

// A key source is required, and only one.
// @ts-expect-error neither jwksUrl nor keys
new JwtBearer({ issuer: 'i', audience: 'a', algorithms: ['RS256'] });
// @ts-expect-error both jwksUrl and keys
new JwtBearer({ ...checks, keys: { keys: [] } });
// Issuer, audience and algorithms must be given; `false` opts out of a claim check, knowingly.
// @ts-expect-error the issuer is missing
new JwtBearer({ jwksUrl: checks.jwksUrl, audience: 'a', algorithms: ['RS256'] });
// @ts-expect-error the algorithms are missing
new JwtBearer({ jwksUrl: checks.jwksUrl, issuer: 'i', audience: 'a' });
new JwtBearer({ ...checks, issuer: false, audience: ['a', 'b'] });
