// The contract table on Express 5: requireAuth on the app, Routers and routes.
import express, { type RequestHandler, type Router } from 'express';
import { exceptionHandler, requireAuth, vouchErrorHandler } from '../../src/express/index.js';
import type { AppDeclaration, RouteDeclaration } from './declarations.js';
import { TeapotError } from './declarations.js';
import { listening, type Harness } from './harness.js';
import { runContract } from './run.js';

const answer: RequestHandler = (req, res) => {
  res.json({ auth: req.auth ?? null });
};

function declare(router: Router, route: RouteDeclaration): void {
  const method = route.method === 'GET' ? 'get' : 'post';
  if (route.auth === undefined) router[method](route.path, answer);
  else router[method](route.path, requireAuth(route.auth, { csrf: false }), answer);
}

export const expressHarness: Harness = {
  name: 'Express',
  combinesLines: false,
  async start(declaration: AppDeclaration) {
    const app = express();
    app.use(requireAuth(declaration.auth, { csrf: false }));
    for (const route of declaration.routes) declare(app.router as Router, route);
    for (const group of declaration.groups) {
      const router = express.Router();
      router.use(requireAuth(group.auth, { csrf: false }));
      for (const route of group.routes) declare(router, route);
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
