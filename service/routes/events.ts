import { router } from 'vouch/fastify';
import type { Authenticators } from '../auth/authenticators.js';
import { detailResponse } from './schemas.js';

const events = [
  { id: 1, title: 'Launch', date: '2026-01-15' },
  { id: 2, title: 'Security review', date: '2026-03-02' },
  { id: 3, title: 'Release 1.0', date: '2026-06-30' },
];
const event = {
  type: 'object',
  properties: { id: { type: 'integer' }, title: { type: 'string' }, date: { type: 'string' } },
  required: ['id', 'title', 'date'],
} as const;

/** The events router: its own `auth` (API key in `X-API-Key`) for every route in it. */
export function eventsRouter(auth: Authenticators) {
  return router({ auth: auth.headerKey }, async function events_(r) {
    // '' rather than '/': the route is the prefix itself, /api/events, as the contract names it.
    r.get(
      '',
      {
        schema: {
          operationId: 'listEvents',
          summary: 'All events',
          tags: ['events'],
          response: { 200: { description: 'Every event', type: 'array', items: event } },
        },
      },
      async () => events,
    );
    r.get<{ Params: { id: number } }>(
      '/:id',
      {
        schema: {
          operationId: 'getEvent',
          summary: 'One event',
          tags: ['events'],
          params: {
            type: 'object',
            properties: { id: { type: 'integer', minimum: 1 } },
            required: ['id'],
          },
          response: {
            200: { description: 'The event', ...event },
            404: detailResponse('No event has this id'),
          },
        },
      },
      async (request, reply) => {
        const found = events.find((candidate) => candidate.id === request.params.id);
        return found ?? reply.code(404).send({ detail: 'Not Found' });
      },
    );
  });
}
