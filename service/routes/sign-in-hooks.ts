// What every sign-in route (POST /api/token, POST /api/auth/login) does before and after its
// handler, written once: the same refusals, and the same headers on every answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CsrfError } from 'vouch';
import type { CsrfProtection } from 'vouch/csrf';
import type { LoginGuard } from '../auth/login-guard.js';
import { QueryParametersError } from '../errors.js';

/**
 * The largest sign-in body, in bytes: a username (150), a password (1024), a scope (1024), a
 * grant type (64) and a client id and secret, each character at worst 6 bytes once
 * percent-encoded or escaped, fit in 16 KiB. A larger body is refused 413 before it is kept.
 */
export const SIGN_IN_BODY_LIMIT = 16 * 1024;

/** The hooks of the sign-in routes, over the service's login guard and CSRF protection. */
export function signInHooks(login: LoginGuard, csrf: CsrfProtection) {
  return {
    /**
     * Login CSRF: a page of another site must not sign the browser in, to the attacker's account
     * or to plant a device cookie. Refused before the body is read or the password looked at.
     */
    refuseCrossSite: async (request: FastifyRequest) => {
      if (!csrf.allowsSignIn(request)) throw new CsrfError();
    },
    /** A flood is refused before the password is looked at: each would only wait, then fail. */
    shedWhenBusy: () => login.refuseWhenBusy(),
    /**
     * A sign-in takes its parameters in the body (RFC 6749 §3.2 and §2.3.1 for the token
     * endpoint): one in the query string, a password say, is refused, never read, and its value
     * is never logged (the logger keeps no query value).
     */
    refuseQuery: async (request: FastifyRequest) => {
      if (Object.keys(request.query as object).length > 0) {
        throw new QueryParametersError(`${request.method} ${request.routeOptions.url ?? ''}`);
      }
    },
  };
}

/**
 * An `onSend` hook marking every answer of a sign-in route as never to be stored, whoever made it
 * (the handler, a hook, the body parser, an error handler): each carries a token or a session, or
 * says something about a password. RFC 6749 §5.1 asks the token endpoint for `Pragma: no-cache`
 * too.
 */
export function neverStored(pragma: boolean) {
  return async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('cache-control', 'no-store');
    if (pragma) reply.header('pragma', 'no-cache');
    return payload;
  };
}
