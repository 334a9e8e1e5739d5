import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serialize } from 'cookie';
import { CsrfError } from 'vouch';
import { clearCsrfCookie, type CsrfProtection } from 'vouch/csrf';
import { withAuth } from 'vouch/fastify';
import type { Authenticators } from '../auth/authenticators.js';
import type { Config } from '../config/config.js';
import { signInSource, type LoginGuard } from '../auth/login-guard.js';
import { parseScope } from '../security/scopes.js';
import { digest, newSecret } from '../security/secrets.js';
import type { Store } from '../store/store.js';
import { checksBusy, detailResponse, tooManyAttempts } from './schemas.js';
import { PasswordChecksBusyError } from '../errors.js';

/** What the sign-in routes need. */
export interface SignInDeps {
  readonly config: Config;
  readonly store: Store;
  readonly login: LoginGuard;
  readonly csrf: CsrfProtection;
  readonly auth: Authenticators;
  readonly now: () => number;
}

interface Credentials {
  username: string;
  password: string;
}

interface TokenRequest extends Credentials {
  scope?: string;
  grant_type?: string;
}

const credentials = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 150 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
  required: ['username', 'password'],
} as const;
const tokenRequest = {
  ...credentials,
  properties: {
    ...credentials.properties,
    scope: {
      type: 'string',
      maxLength: 1024,
      // Empty, Swagger UI's form sends no placeholder ("string") that would ask for a scope.
      default: '',
      description:
        "The scopes the token is to carry, space-separated (RFC 6749 §3.3); all of the user's by default",
    },
    grant_type: {
      type: 'string',
      maxLength: 64,
      default: '',
      description:
        '`password` for the OAuth2 password grant (RFC 6749 §4.3), whose errors are then `{ error, error_description }` (§5.2); empty for the plain form',
    },
  },
} as const;
const wrongCredentials = 'Incorrect username or password';
/** RFC 6749 §5.2's code, beside the service's `detail`: a scope malformed or not granted. */
const invalidScope = {
  detail: 'The requested scope is malformed or not granted to this user',
  error: 'invalid_scope',
} as const;
const crossSite = detailResponse(
  'CSRF check Failed: a sign-in from a page of another site (Origin, Sec-Fetch-Site or Referer)',
);
const refused = detailResponse(
  'A bad request, or a wrong username or password (the same answer for either)',
);

/**
 * An `onSend` hook marking every answer of a sign-in route as never to be stored, whoever made it
 * (the handler, a hook, the body parser, an error handler): each either carries a token or a
 * session, or says something about a password. RFC 6749 §5.1 asks the token endpoint for
 * `Pragma: no-cache` too.
 */
function neverStored(pragma: boolean) {
  return async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('cache-control', 'no-store');
    if (pragma) reply.header('pragma', 'no-cache');
    return payload;
  };
}

/** An RFC 6749 §5.2 error of the password grant. */
function grantError(error: string, description?: string) {
  return { error, ...(description === undefined ? {} : { error_description: description }) };
}

/** `POST /api/token`, `POST /api/auth/login`, `POST /api/auth/logout` (contract §7). */
export function signInRoutes(app: FastifyInstance, deps: SignInDeps): void {
  const { config, store, login, csrf, auth, now } = deps;
  const secure = config.publicOrigin.startsWith('https:');
  const sessionCookie = auth.session.cookieName;
  /** The sign-in the request's body asks for, judged by the login guard. */
  const signInWith = (request: FastifyRequest<{ Body: Credentials }>) =>
    login.check(signInSource(request), request.body.username, request.body.password);
  // A flood is refused before its bodies are read: each would only be refused later.
  const shedWhenBusy = async () => {
    if (login.busy()) throw new PasswordChecksBusyError();
  };
  // Login CSRF: a page of another site must not sign the browser in, to the attacker's account or
  // to get a device cookie planted. Refused before the body is read or the password looked at.
  const refuseCrossSite = async (request: FastifyRequest) => {
    if (!csrf.allowsSignIn(request)) throw new CsrfError();
  };

  app.post<{ Body: TokenRequest }>(
    '/api/token',
    {
      auth: null,
      onRequest: [refuseCrossSite, shedWhenBusy],
      onSend: neverStored(true),
      // The grant form answers its own errors (RFC 6749 §5.2), a malformed request's included.
      attachValidation: true,
      schema: {
        operationId: 'createToken',
        summary: 'Exchange a username and password for a Bearer token',
        tags: ['sign-in'],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: tokenRequest,
        response: {
          200: {
            description: 'A new Bearer token, valid for TOKEN_TTL_SECONDS',
            type: 'object',
            properties: {
              token: { type: 'string' },
              access_token: { type: 'string' },
              token_type: { type: 'string' },
              expires_in: { type: 'integer' },
              scope: { type: 'string', description: 'The scopes it carries, when any' },
            },
            required: ['token', 'access_token', 'token_type', 'expires_in'],
          },
          400: {
            description:
              'A bad request, a wrong username or password (the same answer for either), or a ' +
              'scope malformed or not granted to the user (with error: invalid_scope). With ' +
              'grant_type, only error (invalid_request, unsupported_grant_type, invalid_grant, ' +
              'invalid_scope) and error_description',
            type: 'object',
            properties: {
              detail: { type: 'string' },
              error: { type: 'string' },
              error_description: { type: 'string' },
            },
          },
          403: crossSite,
          429: tooManyAttempts,
          503: checksBusy,
        },
      },
    },
    async (request, reply) => {
      const body = request.body as TokenRequest | undefined;
      const grantType = typeof body?.grant_type === 'string' ? body.grant_type : '';
      const grant = grantType !== '';
      if (request.validationError !== undefined) {
        const { message } = request.validationError;
        return reply
          .code(400)
          .send(grant ? grantError('invalid_request', message) : { detail: message });
      }
      if (grant && grantType !== 'password') {
        return reply.code(400).send(grantError('unsupported_grant_type'));
      }
      const badScope = grant ? grantError('invalid_scope', invalidScope.detail) : invalidScope;
      // No scope, or an empty one as some OAuth clients send, asks for every scope granted.
      const asked = request.body.scope ?? '';
      const requested = asked === '' ? undefined : parseScope(asked);
      // A malformed scope is refused before the password is looked at: it says nothing about it.
      if (asked !== '' && requested === undefined) return reply.code(400).send(badScope);
      const signedIn = await signInWith(request);
      if (signedIn === undefined) {
        return reply
          .code(400)
          .send(
            grant ? grantError('invalid_grant', wrongCredentials) : { detail: wrongCredentials },
          );
      }
      const { user, deviceCookie } = signedIn;
      // Only now, once the password is right, may the answer tell which scopes the user holds.
      const granted = await store.userScopes(user.id);
      const scopes = requested ?? granted;
      if (scopes.some((one) => !granted.includes(one))) return reply.code(400).send(badScope);
      const token = newSecret();
      const issuedAt = now();
      await store.createToken(
        digest(token),
        user.id,
        issuedAt + config.tokenTtlSeconds * 1000,
        issuedAt,
        scopes,
      );
      reply.header('set-cookie', deviceCookie);
      return {
        token,
        access_token: token,
        token_type: 'bearer',
        expires_in: config.tokenTtlSeconds,
        // RFC 6749 §5.1: the scopes granted; left out when there are none, as before scopes.
        ...(scopes.length === 0 ? {} : { scope: scopes.join(' ') }),
      };
    },
  );

  app.post<{ Body: Credentials }>(
    '/api/auth/login',
    {
      auth: null,
      onRequest: [refuseCrossSite, shedWhenBusy],
      onSend: neverStored(false),
      schema: {
        operationId: 'login',
        summary: 'Sign in: sets the sessionid and csrftoken cookies',
        tags: ['sign-in'],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: credentials,
        response: {
          200: {
            description: 'Signed in: the session and CSRF cookies are set',
            type: 'object',
            properties: { username: { type: 'string' } },
            required: ['username'],
          },
          400: refused,
          403: crossSite,
          429: tooManyAttempts,
          503: checksBusy,
        },
      },
    },
    async (request, reply) => {
      const signedIn = await signInWith(request);
      if (signedIn === undefined) return reply.code(400).send({ detail: wrongCredentials });
      const { user, deviceCookie } = signedIn;
      // A new id at every login: whatever session the browser held dies now (no fixation).
      const previous = auth.session.sessionIdOf(request);
      if (previous !== undefined) await auth.session.store.destroy(previous);
      const sessionId = await auth.session.store.create(user);
      const { cookie } = csrf.issue(sessionId);
      reply.header('set-cookie', [
        serialize(sessionCookie, sessionId, {
          httpOnly: true,
          sameSite: 'lax',
          path: '/',
          secure,
          maxAge: Math.floor(config.sessionAbsoluteMs / 1000),
        }),
        cookie,
        deviceCookie,
      ]);
      return { username: user.username };
    },
  );

  app.post('/api/auth/logout', {
    schema: {
      operationId: 'logout',
      summary: 'Sign out: deletes the session',
      tags: ['sign-in'],
      response: { 204: { description: 'Signed out: the session is gone', type: 'null' } },
    },
    ...withAuth(auth.session, async (request: FastifyRequest, reply: FastifyReply) => {
      const sessionId = auth.session.sessionIdOf(request);
      if (sessionId !== undefined) await auth.session.store.destroy(sessionId);
      reply.header('set-cookie', [
        serialize(sessionCookie, '', {
          httpOnly: true,
          sameSite: 'lax',
          path: '/',
          secure,
          maxAge: 0,
        }),
        clearCsrfCookie({ secure }),
      ]);
      return reply.code(204).send();
    }),
  });
}
