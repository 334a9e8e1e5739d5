// Compile-time proofs, checked by `npm run typecheck`: request.auth is the payload, the type
// given, or what `map` returns; a key source and the checks are required.
import Fastify, { type FastifyRequest } from 'fastify';
import { expectTypeOf } from 'expect-type';
import type { JWTPayload } from 'jose';
import type { AuthOf } from '../index.js';
import { vouch, withAuth } from '../fastify/index.js';
import { protectedResource } from '../oauth/index.js';
import { JwtBearer, type JwtIssuer } from './index.js';

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

// A protected resource: its authorization servers trusted, the audience its identifier.
const resource = protectedResource({
  resource: 'https://api.example/mcp',
  authorizationServers: ['https://login.example'],
});
expectTypeOf(new JwtBearer({ resource, algorithms: ['RS256'] })).toEqualTypeOf<JwtBearer>();
new JwtBearer({ resource, algorithms: ['RS256'], typ: false, audience: 'https://api.example/mcp' });
new JwtBearer({ jwksUrl: checks.jwksUrl, issuer: checks.issuer, algorithms: ['RS256'], resource });
// @ts-expect-error a resource's tokens are for it alone: no audience left unchecked
new JwtBearer({ resource, algorithms: ['RS256'], audience: false });
// @ts-expect-error a resource's tokens are for it alone: one audience
new JwtBearer({ resource, algorithms: ['RS256'], audience: ['a', 'b'] });

// Several issuers, each with its keys; an audience or a resource is still required.
const issuers: readonly JwtIssuer[] = [
  { issuer: 'https://a.example', jwksUrl: 'https://a.example/jwks' },
  { issuer: 'https://b.example' },
  { issuer: 'tenant-c', keys: { keys: [] }, algorithms: ['ES256'] },
];
new JwtBearer({ issuers, audience: 'a', algorithms: ['RS256'] });
new JwtBearer({ issuers, resource, algorithms: ['RS256'] });
// @ts-expect-error neither audience nor resource
new JwtBearer({ issuers, algorithms: ['RS256'] });
// @ts-expect-error issuers, or issuer with its keys: not both
new JwtBearer({ ...checks, issuers });
new JwtBearer({
  // @ts-expect-error an issuer's keys come from one place
  issuers: [{ issuer: 'i', jwksUrl: 'https://i.example/jwks', keys: { keys: [] } }],
  audience: 'a',
  algorithms: ['RS256'],
});
