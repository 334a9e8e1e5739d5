import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TestContext } from 'node:test';
import { vouch, type VouchOptions } from '../../src/fastify/index.js';

/** A fresh Fastify app with vouch registered, closed when the test ends. */
export async function build(
  t: TestContext,
  options: VouchOptions = { csrf: false },
  server: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, ...server });
  t.after(() => app.close());
  await app.register(vouch, options);
  return app;
}

/** The CSRF settings used by tests: one secret, one trusted origin. */
export const testCsrf = {
  secret: 'test-secret-of-sufficient-length-0123456789',
  trustedOrigins: ['http://app.test'],
} as const;
