import type { FastifyInstance } from 'fastify';
import { authOf, withAuth } from 'vouch/fastify';
import type { Authenticators } from '../authenticators.js';

const text = { response: { 200: { type: 'string' } } } as const;

function objectWith(field: string) {
  return {
    response: {
      200: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
    },
  } as const;
}

/** The operations that illustrate each kind of authentication (contract §7). */
export function exampleRoutes(app: FastifyInstance, auth: Authenticators): void {
  // No auth of its own: the API-wide Bearer authenticator protects it.
  app.get(
    '/api/bearer',
    { schema: { summary: 'Bearer token (the API-wide authentication)', ...objectWith('token') } },
    async (request) => ({ token: authOf(request, auth.bearer) }),
  );
  app.get('/api/basic', {
    schema: { summary: 'HTTP Basic over the users table', ...objectWith('httpuser') },
    ...withAuth(auth.basic, async (request) => ({ httpuser: request.auth })),
  });
  app.get('/api/apikey', {
    schema: { summary: 'API key in the query parameter api_key', ...text },
    ...withAuth(auth.queryKey, async (request) => `Hello, ${request.auth.name}`),
  });
  app.get('/api/headerkey', {
    schema: { summary: 'API key in the X-API-Key header', ...text },
    ...withAuth(auth.headerKey, async (request) => `Hello, ${request.auth.name}`),
  });
  app.get('/api/cookiekey', {
    schema: { summary: 'API key in the X-API-KEY cookie', ...text },
    ...withAuth(auth.cookieKey, async (request) => `Hello, ${request.auth.name}`),
  });
  app.get('/api/multiple', {
    schema: { summary: 'API key in the query or the header, both named key', ...text },
    ...withAuth([auth.multipleQuery, auth.multipleHeader], async (request) => {
      return `Hello, ${request.auth.name}`;
    }),
  });
  app.get('/api/ipwhiltelist', {
    schema: { summary: 'Custom function: the client address is in the allow-list', ...text },
    ...withAuth(auth.ipAllowList, async (request) => `Your address ${request.auth} is allowed`),
  });
  app.get('/api/pets', {
    schema: { summary: 'Session cookie from POST /api/auth/login', ...text },
    ...withAuth(auth.session, async (request) => `Pets of ${request.auth.username}: Rex, Tom`),
  });
}
