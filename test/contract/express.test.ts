// The contract table on Express 5: requireAuth on the app, Routers and routes.
import express, { type RequestHandler, type Router } from 'express';
import {
  exceptionHandler,
  requireAuth,
  serveResourceMetadata,
  vouchErrorHandler,
} from '../../src/express/index.js';
import { createCsrfVerifier, type CsrfProtection } from '../../src/csrf/index.js';
import type { AppDeclaration, GroupDeclaration, RouteDeclaration } from './declarations.js';
import { handlerAnswer, TeapotError } from './declarations.js';
import { listening, seenHeader, type Harness } from './harness.js';
import { runContract } from './run.js';

const answer =
  (route: RouteDeclaration): RequestHandler =>
  (req, res) => {
    if (route.cacheControl !== undefined) res.set('cache-control', route.cacheControl);
    res.json(handlerAnswer(route, req.auth));
  };

const handOn = (_req: unknown, _res: unknown, next: () => void) => {
  next();
};
// Middleware that hands on, as a logger does.
const logger: RequestHandler = (req, res, next) => {
  res.setHeader('x-seen-auth', seenHeader(req.auth));
  next();
};

function declare(router: Router, route: RouteDeclaration, csrf: CsrfProtection): void {
  const method = route.method.toLowerCase() as Lowercase<RouteDeclaration['method']>;
  if (route.auth === undefined) router[method](route.path, answer(route));
  else {
    const options = { csrf: route.csrf ?? csrf, ...(route.scopes && { scopes: route.scopes }) };
    router[method](route.path, requireAuth(route.auth, options), answer(route));
  }
}

function routerOf(group: GroupDeclaration, csrf: CsrfProtection): Router {
  const router = express.Router();
  router.use(requireAuth(group.auth, { csrf }));
  for (const route of group.routes) declare(router, route, csrf);
  for (const inner of group.groups ?? []) router.use(inner.prefix, routerOf(inner, csrf));
  return router;
}

export const expressHarness: Harness = {
  name: 'Express',
  combinesLines: false,
  shapes: new Set(['answering handler', 'param callback', 'mounted app']),
  async start(declaration: AppDeclaration) {
    const app = express();
    // One protection for every requireAuth, as an application builds it.
    const csrf = createCsrfVerifier(declaration.csrf);
    // Before requireAuth: a form post's CSRF token is read from the parsed body.
    app.use(express.urlencoded());
    app.use(requireAuth(declaration.auth, { csrf }));
    app.use(logger);
    for (const route of declaration.routes) declare(app.router as Router, route, csrf);
    for (const { shape, path, auth = null, all, handsOn } of declaration.guarded) {
      const [guard, handler] = [requireAuth(auth, { csrf }), answer({ method: 'GET', path })];
      if (shape === 'answering handler') {
        app[all === true ? 'all' : 'get'](path, handsOn === true ? handOn : handler);
      }
      if (shape === 'param callback') app.param('id', handOn);
      if (shape === 'mounted app') {
        const [, prefix = '', rest = ''] = /^(\/[^/]+)(.*)$/.exec(path) ?? [];
        const mounted = express();
        mounted.get(rest, guard, handler);
        app.use(prefix, mounted);
      } else app.get(path, guard, handler);
    }
    for (const group of declaration.groups) app.use(group.prefix, routerOf(group, csrf));
    serveResourceMetadata(app, declaration.resource);
    const { status, detail } = declaration.teapot;
    app.use(
      vouchErrorHandler({
        exceptionHandlers: [
          exceptionHandler(TeapotError, (_error, _req, res) => res.status(status).json({ detail })),
        ],
        log: () => undefined,
      }),
    );
    return listening(app.listen(0, '127.0.0.1'));
  },
};

runContract(expressHarness);
