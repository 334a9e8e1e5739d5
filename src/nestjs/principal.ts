import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthOf, AuthSpec } from '../core/auth-spec.js';
import { checkWinner } from '../internal/check-winner.js';
import { stateOf } from './request-state.js';

/**
 * The type of what `auth` authenticates a request with: the hook's return type for one
 * authenticator, the tuple of values for `allOf`, the union of members for a list. A parameter
 * decorator cannot type its parameter, so `@Principal(auth)` checks at run time what this type
 * says at compile time.
 *
 * @example find(@Principal(bearer) user: Principal<typeof bearer>) {}
 */
export type Principal<TSpec> = AuthOf<TSpec>;

/**
 * What `auth` authenticated the request with, typed from the authenticators, on a route that
 * `auth` protects (its platform's request, Express's or Fastify's, or Node's under it). Throws
 * when the request was authenticated by something else: a typed value is never a guess.
 *
 * @example const user = authOf(request, bearer);
 */
export function authOf<const TSpec extends AuthSpec>(request: object, auth: TSpec): AuthOf<TSpec> {
  const state = stateOf(request);
  checkWinner(state?.won?.requirement ?? null, auth, () => state?.entry.where ?? '(no route)');
  return state?.auth as AuthOf<TSpec>;
}

const principal = createParamDecorator(
  (data: { readonly auth?: AuthSpec }, context: ExecutionContext): unknown => {
    const request = context.switchToHttp().getRequest<object>();
    return 'auth' in data ? authOf(request, data.auth) : stateOf(request)?.auth;
  },
);

/**
 * Hands the handler what authenticated the request: the value the winning authenticator returned
 * (a list of values for an all-of group; `undefined` on a route without authentication). Given
 * the route's `auth`, it checks that `auth` is what authenticated the request, so that
 * {@link Principal}`<typeof auth>` is its type (a `ConfigurationError`, a 500, otherwise).
 *
 * @example
 * @Get('bearer')
 * @Auth(bearer)
 * bearer(@Principal(bearer) token: Principal<typeof bearer>) { return { token }; }
 */
export function Principal(...auth: [] | [AuthSpec]): ParameterDecorator {
  return principal(auth.length === 0 ? {} : { auth: auth[0] });
}
