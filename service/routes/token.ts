import type { FastifyInstance } from 'fastify';
import { presentedClient } from '../auth/client-authentication.js';
import { signInSource } from '../auth/login-guard.js';
import { parseScope } from '../security/scopes.js';
import { digest, newSecret } from '../security/secrets.js';
import { asksForGrant, grantError, grantErrorHandler } from './grant-errors.js';
import { crossSiteSignIn, retryAfter, signInBodyTooLarge } from './schemas.js';
import { neverStored, SIGN_IN_BODY_LIMIT, signInHooks } from './sign-in-hooks.js';
import type { SignInDeps } from './sign-in-deps.js';

interface TokenRequest {
  username: string;
  password: string;
  scope?: string;
  grant_type?: string;
}

// Empty by default, so that Swagger UI's form sends no placeholder ("string") as a client.
const clientField = (description: string) =>
  ({ type: 'string', maxLength: 1024, default: '', description }) as const;

const tokenRequest = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 150 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
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
    client_id: clientField(
      'Leave out or empty: the service registers no OAuth clients, so a client_id names an unknown client (401 invalid_client), a public one (RFC 6749 §2.1) included',
    ),
    client_secret: clientField('Leave out or empty: no client can authenticate (401)'),
  },
  required: ['username', 'password'],
} as const;

const wrongCredentials = 'Incorrect username or password';
/** RFC 6749 §5.2's code, beside the service's `detail`: a scope malformed or not granted. */
const invalidScope = {
  detail: 'The requested scope is malformed or not granted to this user',
  error: 'invalid_scope',
} as const;
const unknownClient =
  'Unknown client: this service registers no OAuth clients; send no client_id, client_secret or Authorization: Basic';
const twoAuthorizations = 'Authorization is given more than once';

/** An error answer that is `{ detail }` in the plain form and §5.2's in the grant form. */
function errorResponse(description: string) {
  return {
    description,
    type: 'object',
    properties: {
      detail: { type: 'string' },
      error: { type: 'string' },
      error_description: { type: 'string' },
    },
  } as const;
}

/** An error answer of {@link errorResponse}'s shape that says when to try again. */
function retryLater(description: string) {
  return { ...errorResponse(description), headers: retryAfter } as const;
}

/** `POST /api/token`: a Bearer token for a username and password (contract §7, RFC 6749 §4.3). */
export function tokenRoute(app: FastifyInstance, deps: SignInDeps): void {
  const { config, store, login, csrf, auth, now } = deps;
  const hooks = signInHooks(login, csrf);
  // RFC 6749 §5.2: a client that tried HTTP Basic is answered with the scheme it used.
  const basicChallenge = auth.basic.challenge(app.vouch.realm);

  app.post<{ Body: TokenRequest }>(
    '/api/token',
    {
      auth: null,
      bodyLimit: SIGN_IN_BODY_LIMIT,
      onRequest: hooks.refuseCrossSite,
      // Here the busy check waits for the body (at most 16 KiB), so that its 503 can take the
      // form the request asked for.
      preValidation: [hooks.refuseQuery, hooks.shedWhenBusy],
      onSend: neverStored(true),
      errorHandler: grantErrorHandler,
      schema: {
        operationId: 'createToken',
        summary: 'Exchange a username and password for a Bearer token',
        description:
          'The plain form (no grant_type) answers its errors { detail }; the OAuth2 password ' +
          'grant (grant_type=password) answers them { error, error_description } (RFC 6749 ' +
          '§5.2). Parameters travel in the body only, once each. No OAuth clients are ' +
          'registered: client authentication, or a client_id alone, is refused 401.',
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
          400: errorResponse(
            'A bad request (a parameter missing, invalid or given twice, a JSON key given twice, ' +
              'a parameter in the query string), a wrong username or password (the same answer ' +
              'for either), or a scope malformed or not granted to the user (with error: ' +
              'invalid_scope). With grant_type, only error (invalid_request, ' +
              'unsupported_grant_type, invalid_grant, invalid_scope) and error_description',
          ),
          401: errorResponse(
            'Client authentication presented (HTTP Basic, client_id, client_secret): no client is ' +
              'registered. With grant_type, error: invalid_client; with HTTP Basic, a ' +
              'WWW-Authenticate: Basic challenge',
          ),
          403: crossSiteSignIn,
          413: signInBodyTooLarge,
          429: retryLater(
            'Too many failed sign-ins from this address or for this username; Retry-After says ' +
              'when to try again. With grant_type, error: temporarily_unavailable',
          ),
          503: retryLater(
            'Too many password checks under way, or the database does not answer; Retry-After ' +
              'says when to try again. With grant_type, error: temporarily_unavailable',
          ),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const grant = asksForGrant(body);
      const client = presentedClient(request, body);
      if (client === 'ambiguous') {
        return reply
          .code(400)
          .send(
            grant ? grantError('invalid_request', twoAuthorizations) : { detail: 'Bad Request' },
          );
      }
      // Before the grant type or the password is looked at: the client is judged first (§4.3.2).
      if (client !== 'none') {
        if (client === 'basic') reply.header('www-authenticate', basicChallenge);
        return reply
          .code(401)
          .send(grant ? grantError('invalid_client', unknownClient) : { detail: unknownClient });
      }
      if (grant && body.grant_type !== 'password') {
        return reply.code(400).send(grantError('unsupported_grant_type'));
      }
      const badScope = grant ? grantError('invalid_scope', invalidScope.detail) : invalidScope;
      // No scope, or an empty one as some OAuth clients send, asks for every scope granted.
      const asked = body.scope ?? '';
      const requested = asked === '' ? undefined : parseScope(asked);
      // A malformed scope is refused before the password is looked at: it says nothing about it.
      if (asked !== '' && requested === undefined) return reply.code(400).send(badScope);
      const signedIn = await login.check(signInSource(request), body.username, body.password);
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
}
