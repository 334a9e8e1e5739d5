import type { FastifyReply } from 'fastify';
import type { VouchError } from '../core/errors.js';
import { vouchAnswer } from '../internal/vouch-answer.js';

/** Sends one of vouch's errors: status, `{ detail }`, and the headers its status calls for. */
export function sendVouchError(
  reply: FastifyReply,
  error: VouchError,
  challenges: readonly string[],
): FastifyReply {
  const answer = vouchAnswer(error, challenges);
  reply.code(answer.status);
  if (answer.challenges.length > 0) {
    const [only] = answer.challenges;
    reply.header(
      'www-authenticate',
      answer.challenges.length === 1 ? only : [...answer.challenges],
    );
  }
  if (answer.retryAfter !== undefined) reply.header('retry-after', answer.retryAfter);
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
