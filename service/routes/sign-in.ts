import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serialize } from 'cookie';
import { clearCsrfCookie } from 'vouch/csrf';
import { withAuth } from 'vouch/fastify';
import { signInSource } from '../auth/login-guard.js';
import {
  checksBusy,
  crossSiteSignIn,
  detailResponse,
  signInBodyTooLarge,
  tooManyAttempts,
} from './schemas.js';
import type { SignInDeps } from './sign-in-deps.js';
import { neverStored, SIGN_IN_BODY_LIMIT, signInHooks } from './sign-in-hooks.js';
import { tokenRoute } from './token.js';

interface Credentials {
  username: string;
  password: string;
}

const credentials = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 150 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
  required: ['username', 'password'],
} as const;
const wrongCredentials = 'Incorrect username or password';

/** `POST /api/token`, `POST /api/auth/login`, `POST /api/auth/logout` (contract §7). */
export function signInRoutes(app: FastifyInstance, deps: SignInDeps): void {
  const { config, login, csrf, auth } = deps;
  const secure = config.publicOrigin.startsWith('https:');
  const sessionCookie = auth.session.cookieName;
  const hooks = signInHooks(login, csrf);

  tokenRoute(app, deps);

  app.post<{ Body: Credentials }>(
    '/api/auth/login',
    {
      auth: null,
      bodyLimit: SIGN_IN_BODY_LIMIT,
      // A flood is refused before its bodies are read: each would only be refused later.
      onRequest: [hooks.refuseCrossSite, hooks.shedWhenBusy],
      preValidation: hooks.refuseQuery,
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
          400: detailResponse(
            'A bad request (a parameter missing, invalid or given twice, a JSON key given twice, ' +
              'a parameter in the query string), or a wrong username or password (the same ' +
              'answer for either)',
          ),
          403: crossSiteSignIn,
          413: signInBodyTooLarge,
          429: tooManyAttempts,
          503: checksBusy,
        },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const signedIn = await login.check(signInSource(request), username, password);
      if (signedIn === undefined) return reply.code(400).send({ detail: wrongCredentials });
      const { user, deviceCookie } = signedIn;
      // A new id at every login: whatever session the browser held dies now (no fixation).
      const previous = auth.session.sessionIdOf(request);
      if (previous !== undefined) await auth.session.store.destroy(previous);
      // Refused when the password was changed (or the user locked) while it was being checked.
      const sessionId = await auth.sessions.start(signedIn);
      if (sessionId === undefined) return reply.code(400).send({ detail: wrongCredentials });
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
