// The contract table on Hono over @hono/node-server: requireAuth on the app, sub-apps and routes.
import { serve } from '@hono/node-server';
import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import {
  exceptionHandler,
  requireAuth,
  serveResourceMetadata,
  vouchErrorHandler,
} from '../../src/hono/index.js';
import { createCsrfVerifier, type CsrfProtection } from '../../src/csrf/index.js';
import type { AppDeclaration, GroupDeclaration, RouteDeclaration } from './declarations.js';
import { handlerAnswer, TeapotError } from './declarations.js';
import type { Server } from 'node:http';
import { listening, seenHeader, type Harness } from './harness.js';
import { runContract } from './run.js';

const answer =
  (route: RouteDeclaration): Handler =>
  (c) => {
    if (route.cacheControl !== undefined) c.header('cache-control', route.cacheControl);
    return c.json(handlerAnswer(route, c.get('auth') as unknown));
  };
const handOn: MiddlewareHandler = async (_c, next) => {
  await next();
};
// Middleware that hands on, as a logger does.
const logger: MiddlewareHandler = async (c, next) => {
  c.header('x-seen-auth', seenHeader(c.get('auth') as unknown));
  await next();
};

function declare(app: Hono, route: RouteDeclaration, csrf: CsrfProtection): void {
  if (route.auth === undefined) app.on(route.method, route.path, answer(route));
  else {
    const guard = requireAuth(route.auth, {
      csrf: route.csrf ?? csrf,
      ...(route.scopes && { scopes: route.scopes }),
    });
    app.on(route.method, route.path, guard, answer(route));
  }
}

function subApp(group: GroupDeclaration, csrf: CsrfProtection): Hono {
  const sub = new Hono();
  sub.use('*', requireAuth(group.auth, { csrf }));
  for (const route of group.routes) declare(sub, route, csrf);
  for (const inner of group.groups ?? []) sub.route(inner.prefix, subApp(inner, csrf));
  return sub;
}

export const honoHarness: Harness = {
  name: 'Hono',
  combinesLines: true,
  shapes: new Set(['answering handler']),
  async start(declaration: AppDeclaration) {
    const app = new Hono();
    // One protection for every requireAuth, as an application builds it.
    const csrf = createCsrfVerifier(declaration.csrf);
    const { status, detail } = declaration.teapot;
    app.onError(
      vouchErrorHandler({
        exceptionHandlers: [
          exceptionHandler(TeapotError, (_error, c) =>
            c.body(JSON.stringify({ detail }), status, {
              'content-type': 'application/json; charset=utf-8',
            }),
          ),
        ],
        log: () => undefined,
      }),
    );
    app.use('*', requireAuth(declaration.auth, { csrf }));
    app.use('*', logger);
    for (const route of declaration.routes) declare(app, route, csrf);
    for (const { shape, path, auth = null, all, handsOn } of declaration.guarded) {
      if (shape !== 'answering handler') continue;
      const handler = answer({ method: 'GET', path });
      app[all === true ? 'all' : 'get'](path, handsOn === true ? handOn : handler);
      app.get(path, requireAuth(auth, { csrf }), handler);
    }
    for (const group of declaration.groups) {
      app.route(group.prefix, subApp(group, csrf));
    }
    serveResourceMetadata(app, declaration.resource);
    return listening(serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server);
  },
};

runContract(honoHarness);
