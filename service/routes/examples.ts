import type { FastifyInstance } from 'fastify';
import { authOf, withAuth } from 'vouch/fastify';
import type { Authenticators } from '../auth/authenticators.js';
import { checksBusy, tooManyAttempts } from './schemas.js';

/**
 * An operation of the examples group, answering text. Its media type is said explicitly: a bare
 * `type: 'string'` would be described as `application/json`, while Fastify sends a string as
 * `text/plain`.
 */
function text(operationId: string, summary: string, answer: string) {
  return {
    operationId,
    summary,
    tags: ['examples'],
    response: {
      200: { description: answer, content: { 'text/plain': { schema: { type: 'string' } } } },
    },
  } as const;
}

/** An operation of the examples group, answering `{ [field]: string }`, or `errors`. */
function objectWith(
  operationId: string,
  summary: string,
  field: string,
  answer: string,
  errors: object = {},
) {
  return {
    operationId,
    summary,
    tags: ['examples'],
    response: {
      200: {
        description: answer,
        type: 'object',
        properties: { [field]: { type: 'string' } },
        required: [field],
      },
      ...errors,
    },
  } as const;
}

/** The operations that illustrate each kind of authentication (contract §7). */
export function exampleRoutes(app: FastifyInstance, auth: Authenticators): void {
  // No auth of its own: the API-wide Bearer authenticator protects it.
  app.get(
    '/api/bearer',
    {
      schema: objectWith(
        'getBearer',
        'Bearer token (the API-wide authentication)',
        'token',
        'The token that authenticated the request',
      ),
    },
    async (request) => ({ token: authOf(request, auth.bearer).token }),
  );
  app.get('/api/basic', {
    // Basic shares the failed sign-in limits and the password checks of POST /api/token.
    schema: objectWith(
      'getBasic',
      'HTTP Basic over the users table',
      'httpuser',
      'The signed-in username',
      {
        429: tooManyAttempts,
        503: checksBusy,
      },
    ),
    ...withAuth(auth.basic, async (request) => ({ httpuser: request.auth.user.username })),
  });
  app.get('/api/apikey', {
    schema: text(
      'getApiKey',
      'API key in the query parameter api_key',
      "A greeting with the key's application",
    ),
    ...withAuth(auth.queryKey, async (request) => `Hello, ${request.auth.name}`),
  });
  app.get('/api/headerkey', {
    schema: text(
      'getHeaderKey',
      'API key in the X-API-Key header',
      "A greeting with the key's application",
    ),
    ...withAuth(auth.headerKey, async (request) => `Hello, ${request.auth.name}`),
  });
  app.get('/api/cookiekey', {
    schema: text(
      'getCookieKey',
      'API key in the X-API-KEY cookie',
      "A greeting with the key's application",
    ),
    ...withAuth(auth.cookieKey, async (request) => `Hello, ${request.auth.name}`),
  });
  app.get('/api/multiple', {
    schema: text(
      'getMultiple',
      'API key in the query or the header, both named key',
      "A greeting with the key's application",
    ),
    ...withAuth([auth.multipleQuery, auth.multipleHeader], async (request) => {
      return `Hello, ${request.auth.name}`;
    }),
  });
  app.get('/api/ipwhiltelist', {
    schema: text(
      'getIpAllowList',
      'Custom function: the client address is in the allow-list',
      'The client address, allowed',
    ),
    ...withAuth(auth.ipAllowList, async (request) => `Your address ${request.auth} is allowed`),
  });
  app.get('/api/pets', {
    schema: text(
      'getPets',
      'Session cookie from POST /api/auth/login',
      "The signed-in user's pets",
    ),
    ...withAuth(auth.session, async (request) => `Pets of ${request.auth.username}: Rex, Tom`),
  });
}
