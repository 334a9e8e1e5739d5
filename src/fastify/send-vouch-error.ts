import type { FastifyReply } from 'fastify';
import type { VouchError } from '../core/errors.js';
import { JSON_TYPE, vouchAnswer } from '../internal/vouch-answer.js';

/** Sends one of vouch's errors: status, `{ detail }`, and the headers its status calls for. */
export function sendVouchError(
  reply: FastifyReply,
  error: VouchError,
  challenges: readonly string[],
): FastifyReply {
  const { status, headers, body } = vouchAnswer(error, challenges);
  return reply.code(status).headers(headers).type(JSON_TYPE).send(body);
}
