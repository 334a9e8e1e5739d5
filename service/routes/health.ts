import type { FastifyInstance } from 'fastify';
import { StoreUnavailableError } from 'vouch';
import type { Store } from '../store/store.js';
import { storeUnavailable } from './schemas.js';

/** `GET /api/version`: what is running; no authentication and no store access. */
export function versionRoute(app: FastifyInstance, version: string): void {
  const payload = { name: 'vouch', version };
  app.get(
    '/api/version',
    {
      auth: null,
      schema: {
        operationId: 'getVersion',
        summary: 'The running version',
        tags: ['service'],
        response: {
          200: {
            description: 'The name and version of what answers',
            type: 'object',
            properties: { name: { type: 'string' }, version: { type: 'string' } },
            required: ['name', 'version'],
          },
        },
      },
    },
    async () => payload,
  );
}

/** `GET /api/health`: 200 once the store answers, 503 otherwise. */
export function healthRoute(app: FastifyInstance, store: Store): void {
  app.get(
    '/api/health',
    {
      auth: null,
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness and store reachability',
        tags: ['service'],
        response: {
          200: {
            description: 'The service answers and its database too',
            type: 'object',
            properties: { status: { type: 'string' } },
            required: ['status'],
          },
          503: storeUnavailable,
        },
      },
    },
    async () => {
      try {
        await store.ping();
      } catch (error) {
        throw error instanceof StoreUnavailableError
          ? error
          : new StoreUnavailableError(undefined, { cause: error });
      }
      return { status: 'ok' };
    },
  );
}
