// Compile-time proofs, checked by `npm run typecheck`: Principal<typeof auth> is what `auth`
// authenticates with, authOf() returns it, and @Auth takes what `auth` options take.
import { expectTypeOf } from 'expect-type';
import { APIKeyHeader, HttpBearer, type AllOf } from '../index.js';
import { Auth, authOf, Principal } from './index.js';

interface User {
  id: number;
}
const bearer = new HttpBearer({
  authenticate: (_request, token): User | undefined => (token === 't' ? { id: 1 } : undefined),
});
const key = new APIKeyHeader({ paramName: 'X-Key', authenticate: async () => 'app' });
type Robot = () => 'robot' | null;

expectTypeOf<Principal<typeof bearer>>().toEqualTypeOf<User>();
expectTypeOf<Principal<typeof key>>().toEqualTypeOf<string>();
expectTypeOf<Principal<Robot>>().toEqualTypeOf<'robot'>();
expectTypeOf<Principal<[typeof key, typeof bearer]>>().toEqualTypeOf<string | User>();
expectTypeOf<Principal<AllOf<[typeof bearer, typeof key]>>>().toEqualTypeOf<[User, string]>();
expectTypeOf<Principal<null>>().toEqualTypeOf<undefined>();

declare const request: object;
expectTypeOf(authOf(request, bearer)).toEqualTypeOf<User>();
expectTypeOf(authOf(request, [key, bearer] as const)).toEqualTypeOf<string | User>();

expectTypeOf(Principal(bearer)).toEqualTypeOf<ParameterDecorator>();
expectTypeOf(Principal()).toEqualTypeOf<ParameterDecorator>();
Auth(bearer, { scopes: ['pets:read'], csrf: false });
Auth([key, bearer]);
Auth(null);
// @ts-expect-error: auth is an authenticator, a function, allOf(...), a list or null
Auth('bearer');
// @ts-expect-error: scopes are a list
Auth(bearer, { scopes: 'pets:read' });
