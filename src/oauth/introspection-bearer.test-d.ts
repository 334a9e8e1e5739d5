// Compile-time proofs, checked by `npm run typecheck`: request.auth is the introspection answer
// or what `map` returns; a resource, or an audience and an issuer, is required.
import { type FastifyRequest } from 'fastify';
import { expectTypeOf } from 'expect-type';
import type { AuthOf } from '../index.js';
import '../fastify/index.js';
import { IntrospectionBearer, protectedResource, type IntrospectionAnswer } from './index.js';

const endpoint = {
  introspectionEndpoint: 'https://login.example.com/introspect',
  clientId: 'api',
  clientSecret: 'secret',
} as const;
const resource = protectedResource({
  resource: 'https://api.example.com/mcp',
  authorizationServers: ['https://login.example.com'],
});

const plain = new IntrospectionBearer({ ...endpoint, resource });
const mapped = new IntrospectionBearer({
  ...endpoint,
  resource,
  map: (introspected, request) => {
    expectTypeOf(introspected).toEqualTypeOf<IntrospectionAnswer>();
    expectTypeOf(request).toEqualTypeOf<FastifyRequest>();
    return introspected.sub === undefined
      ? null
      : { id: introspected.sub, scope: introspected.scope };
  },
});

expectTypeOf(plain).toEqualTypeOf<IntrospectionBearer>();
expectTypeOf<AuthOf<typeof plain>>().toEqualTypeOf<IntrospectionAnswer>();
expectTypeOf<AuthOf<typeof plain>['scope']>().toEqualTypeOf<string | undefined>();
expectTypeOf(mapped).toEqualTypeOf<
  IntrospectionBearer<{ id: string; scope: string | undefined }>
>();

// Without a resource, the audience and the issuer are required; `false` opts out, knowingly.
new IntrospectionBearer({ ...endpoint, audience: 'https://api.example.com/', issuer: false });
// @ts-expect-error neither a resource nor an audience
new IntrospectionBearer({ ...endpoint, issuer: 'https://login.example.com' });
// @ts-expect-error the issuer is missing
new IntrospectionBearer({ ...endpoint, audience: 'https://api.example.com/' });
// Beside a resource, an audience is its identifier, alone.
new IntrospectionBearer({ ...endpoint, resource, audience: resource.resource });
// @ts-expect-error one audience at most
new IntrospectionBearer({ ...endpoint, resource, audience: ['https://a.test', 'https://b.test'] });
// @ts-expect-error the client secret is missing
new IntrospectionBearer({ resource, introspectionEndpoint: 'https://x.test/', clientId: 'api' });
