import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { AuthOf, AuthSpec } from '../core/auth-spec.js';
import { checkWinner } from '../internal/check-winner.js';
import { winnerOf } from './plugin.js';

/** A request whose `auth` is typed from the route's `auth` declaration. */
export type AuthedRequest<
  TSpec,
  TRoute extends RouteGenericInterface = RouteGenericInterface,
> = FastifyRequest<TRoute> & { auth: AuthOf<TSpec> };

/** A handler receiving an {@link AuthedRequest}. */
export type AuthedHandler<TSpec, TRoute extends RouteGenericInterface = RouteGenericInterface> = (
  this: FastifyInstance,
  request: AuthedRequest<TSpec, TRoute>,
  reply: FastifyReply,
) => unknown;

/**
 * Route options whose handler sees `request.auth` typed from `auth`.
 *
 * @example
 * app.get('/bearer', withAuth(bearer, async (request) => ({ token: request.auth })));
 */
export function withAuth<
  const TSpec extends AuthSpec,
  TRoute extends RouteGenericInterface = RouteGenericInterface,
>(
  auth: TSpec,
  handler: AuthedHandler<TSpec, TRoute>,
): { auth: TSpec; handler: RouteHandlerMethod } {
  // vouch sets request.auth before any handler runs, so the narrower request type holds.
  return { auth, handler: handler as unknown as RouteHandlerMethod };
}

/**
 * `request.auth`, typed from the `auth` value that authenticated the request. Throws when the
 * request was authenticated by something else: a typed value is never a guess.
 *
 * @example const user = authOf(request, bearer);
 */
export function authOf<const TSpec extends AuthSpec>(
  request: FastifyRequest,
  auth: TSpec,
): AuthOf<TSpec> {
  checkWinner(
    winnerOf(request),
    auth,
    () => `${request.method} ${request.routeOptions.url ?? '(no route)'}`,
  );
  return request.auth as AuthOf<TSpec>;
}
