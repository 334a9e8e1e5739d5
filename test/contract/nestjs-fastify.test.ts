// The contract table on NestJS over Fastify (@nestjs/platform-fastify).
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { nestHarness } from './nestjs.js';
import { runContract } from './run.js';

runContract(
  nestHarness(
    'Nest on Fastify',
    () => new FastifyAdapter(),
    (host, status, detail) =>
      host.switchToHttp().getResponse<FastifyReply>().code(status).send({ detail }),
  ),
);
