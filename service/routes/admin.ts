import type { FastifyInstance } from 'fastify';
import type { Authenticators } from '../auth/authenticators.js';
import type { Store } from '../store/store.js';
import { checksBusy, tooManyAttempts } from './schemas.js';

/**
 * The administration operations: a Bearer token carrying the `admin` scope, or the username and
 * password of a user granted it (HTTP Basic).
 */
export function adminRoutes(app: FastifyInstance, auth: Authenticators, store: Store): void {
  app.get(
    '/api/admin/users',
    {
      auth: [auth.bearer, auth.oauth2, auth.basic],
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
          // Basic shares the failed sign-in limits and the password checks of POST /api/token.
          429: tooManyAttempts,
          // The handler reads the database too, whatever answered for the credential.
          503: checksBusy,
        },
      },
    },
    async () => ({ users: (await store.listUsers()).map((user) => user.username).sort() }),
  );
}
