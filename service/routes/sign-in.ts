import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseCookies, serialize } from 'cookie';
import { clearCsrfCookie, type CsrfProtection } from 'vouch/csrf';
import { withAuth } from 'vouch/fastify';
import type { Authenticators } from '../authenticators.js';
import type { Config } from '../config.js';
import type { LoginGuard } from '../login-guard.js';
import { digest, newSecret } from '../security/secrets.js';
import type { Store } from '../store/store.js';

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

const credentials = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 150 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
  required: ['username', 'password'],
} as const;
const wrongCredentials = 'Incorrect username or password';
const detail = {
  type: 'object',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
} as const;

/** `POST /api/token`, `POST /api/auth/login`, `POST /api/auth/logout` (contract §7). */
export function signInRoutes(app: FastifyInstance, deps: SignInDeps): void {
  const { config, store, login, csrf, auth, now } = deps;
  const secure = config.publicOrigin.startsWith('https:');
  const sessionCookie = auth.session.cookieName;

  app.post<{ Body: Credentials }>(
    '/api/token',
    {
      auth: null,
      schema: {
        summary: 'Exchange a username and password for a Bearer token',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: credentials,
        response: {
          200: {
            type: 'object',
            properties: {
              token: { type: 'string' },
              access_token: { type: 'string' },
              token_type: { type: 'string' },
              expires_in: { type: 'integer' },
            },
            required: ['token', 'access_token', 'token_type', 'expires_in'],
          },
          400: detail,
          429: detail,
        },
      },
    },
    async (request, reply) => {
      const user = await login.check(request.ip, request.body.username, request.body.password);
      if (user === undefined) return reply.code(400).send({ detail: wrongCredentials });
      const token = newSecret();
      const issuedAt = now();
      await store.createToken(
        digest(token),
        user.id,
        issuedAt + config.tokenTtlSeconds * 1000,
        issuedAt,
      );
      reply.header('cache-control', 'no-store');
      return {
        token,
        access_token: token,
        token_type: 'bearer',
        expires_in: config.tokenTtlSeconds,
      };
    },
  );

  app.post<{ Body: Credentials }>(
    '/api/auth/login',
    {
      auth: null,
      schema: {
        summary: 'Sign in: sets the sessionid and csrftoken cookies',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: credentials,
        response: {
          200: {
            type: 'object',
            properties: { username: { type: 'string' } },
            required: ['username'],
          },
          400: detail,
          429: detail,
        },
      },
    },
    async (request, reply) => {
      const user = await login.check(request.ip, request.body.username, request.body.password);
      if (user === undefined) return reply.code(400).send({ detail: wrongCredentials });
      // A new id at every login: whatever session the browser held dies now (no fixation).
      const previous = sessionIdOf(request, sessionCookie);
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
      ]);
      reply.header('cache-control', 'no-store');
      return { username: user.username };
    },
  );

  app.post('/api/auth/logout', {
    schema: { summary: 'Sign out: deletes the session', response: { 204: { type: 'null' } } },
    ...withAuth(auth.session, async (request: FastifyRequest, reply: FastifyReply) => {
      const sessionId = sessionIdOf(request, sessionCookie);
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

function sessionIdOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  const value = parseCookies(header)[name];
  return value === undefined || value === '' ? undefined : value;
}
