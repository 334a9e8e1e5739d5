import { router } from 'vouch/fastify';
import type { Authenticators } from '../authenticators.js';

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
    r.get(
      '/',
      { schema: { summary: 'All events', response: { 200: { type: 'array', items: event } } } },
      async () => events,
    );
    r.get<{ Params: { id: number } }>(
      '/:id',
      {
        schema: {
          summary: 'One event',
          params: {
            type: 'object',
            properties: { id: { type: 'integer', minimum: 1 } },
            required: ['id'],
          },
          response: { 200: event },
        },
      },
      async (request, reply) => {
        const found = events.find((candidate) => candidate.id === request.params.id);
        return found ?? reply.code(404).send({ detail: 'Not Found' });
      },
    );
  });
}
