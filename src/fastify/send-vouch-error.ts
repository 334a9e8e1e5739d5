import type { FastifyReply } from 'fastify';
import type { VouchError } from '../core/errors.js';
import { JSON_TYPE, vouchAnswer } from '../internal/vouch-answer.js';

/**
 * Sends one of vouch's errors: status, `{ detail }`, and the headers its status calls for (on a
 * 401, with the `headers` the refusals named).
 */
export function sendVouchError(
  reply: FastifyReply,
  error: VouchError,
  challenges: readonly string[],
  refusalHeaders?: Readonly<Record<string, string>>,
): FastifyReply {
  const { status, headers, body } = vouchAnswer(error, challenges, refusalHeaders);
  return reply.code(status).headers(headers).type(JSON_TYPE).send(body);
}
