// The contract table on Express 5: requireAuth on the app, Routers and routes.
import express, { type RequestHandler, type Router } from 'express';
import { exceptionHandler, requireAuth, vouchErrorHandler } from '../../src/express/index.js';
import { createCsrfVerifier, type CsrfProtection } from '../../src/csrf/index.js';
import type { AppDeclaration, RouteDeclaration } from './declarations.js';
import { TeapotError } from './declarations.js';
import { listening, type Harness } from './harness.js';
import { runContract } from './run.js';

const answer =
  (route: RouteDeclaration): RequestHandler =>
  (req, res) => {
    if (route.cacheControl !== undefined) res.set('cache-control', route.cacheControl);
    res.json({ auth: req.auth ?? null });
  };

function declare(router: Router, route: RouteDeclaration, csrf: CsrfProtection): void {
  const method = route.method.toLowerCase() as Lowercase<RouteDeclaration['method']>;
  if (route.auth === undefined) router[method](route.path, answer(route));
  else {
    const options = { csrf: route.csrf ?? csrf, ...(route.scopes && { scopes: route.scopes }) };
    router[method](route.path, requireAuth(route.auth, options), answer(route));
  }
}

export const expressHarness: Harness = {
  name: 'Express',
  combinesLines: false,
  async start(declaration: AppDeclaration) {
    const app = express();
    // One protection for every requireAuth, as an application builds it.
    const csrf = createCsrfVerifier(declaration.csrf);
    // Before requireAuth: a form post's CSRF token is read from the parsed body.
    app.use(express.urlencoded());
    app.use(requireAuth(declaration.auth, { csrf }));
    for (const route of declaration.routes) declare(app.router as Router, route, csrf);
    for (const group of declaration.groups) {
      const router = express.Router();
      router.use(requireAuth(group.auth, { csrf }));
      for (const route of group.routes) declare(router, route, csrf);
      app.use(group.prefix, router);
    }
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
