// The contract table on Fastify: the vouch plugin, routers and per-route `auth`.
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { exceptionHandler, router, serveResourceMetadata, vouch } from '../../src/fastify/index.js';
import type { AppDeclaration, GroupDeclaration, RouteDeclaration } from './declarations.js';
import { handlerAnswer, TeapotError } from './declarations.js';
import { seenHeader, type Harness } from './harness.js';
import { runContract } from './run.js';

function declare(app: FastifyInstance, route: RouteDeclaration): void {
  app.route({
    method: route.method === 'ALL' ? app.supportedMethods : route.method,
    url: route.path,
    ...(route.auth === undefined ? {} : { auth: route.auth }),
    ...(route.csrf === undefined ? {} : { csrf: route.csrf }),
    ...(route.scopes === undefined ? {} : { scopes: route.scopes }),
    handler: async (request, reply) => {
      if (route.cacheControl !== undefined) reply.header('cache-control', route.cacheControl);
      return handlerAnswer(route, request.auth);
    },
  });
}

function routerOf(group: GroupDeclaration) {
  return router({ auth: group.auth }, async (r) => {
    for (const route of group.routes) declare(r, route);
    for (const inner of group.groups ?? [])
      await r.register(routerOf(inner), { prefix: inner.prefix });
  });
}

export const fastifyHarness: Harness = {
  name: 'Fastify',
  combinesLines: false,
  shapes: new Set(),
  async start(declaration: AppDeclaration) {
    const app = Fastify({ logger: false });
    await app.register(formbody);
    const { status, detail } = declaration.teapot;
    await app.register(vouch, {
      auth: declaration.auth,
      csrf: declaration.csrf,
      exceptionHandlers: [
        exceptionHandler(TeapotError, (_error, _request, reply) =>
          reply.code(status).send({ detail }),
        ),
      ],
    });
    // What runs after authentication, as a logger would.
    app.addHook('preHandler', async (request, reply) => {
      reply.header('x-seen-auth', seenHeader(request.auth));
    });
    for (const route of declaration.routes) declare(app, route);
    for (const group of declaration.groups) {
      await app.register(routerOf(group), { prefix: group.prefix });
    }
    serveResourceMetadata(app, declaration.resource);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    return {
      port: typeof address === 'object' && address !== null ? address.port : 0,
      close: () => app.close(),
    };
  },
};

runContract(fastifyHarness);
