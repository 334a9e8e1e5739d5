import type { FastifyInstance } from 'fastify';
import type { Authenticators } from '../auth/authenticators.js';
import type { Store } from '../store/store.js';
import { storeUnavailable } from './schemas.js';

/** The administration operations: a Bearer token carrying the `admin` scope. */
export function adminRoutes(app: FastifyInstance, auth: Authenticators, store: Store): void {
  app.get(
    '/api/admin/users',
    {
      auth: [auth.bearer, auth.oauth2],
      scopes: ['admin'],
      schema: {
        operationId: 'listUsers',
        summary: 'Every username (needs the admin scope)',
        tags: ['admin'],
        response: {
          200: {
            description: 'The usernames, sorted',
            type: 'object',
            properties: { users: { type: 'array', items: { type: 'string' } } },
            required: ['users'],
          },
          // The handler reads the database too, whatever answered for the token.
          503: storeUnavailable,
        },
      },
    },
    async () => ({ users: (await store.listUsers()).map((user) => user.username).sort() }),
  );
}
