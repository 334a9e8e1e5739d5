import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { swaggerUI } from '@hono/swagger-ui';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { fileURLToPath } from 'node:url';
import { APIKeyHeader, HttpBearer } from 'vouch';
import {
  documentSecurity,
  persistTokensOnlySource,
  requireAuth,
  vouchErrorHandler,
} from 'vouch/hono';

const applications = new Map([['demo-key', { name: 'demo app' }]]);

const bearer = new HttpBearer({
  tokens: new Map([[process.env.API_TOKEN ?? 'change-me', 'admin']]), // static, constant-time
});
const apiKey = new APIKeyHeader({
  paramName: 'X-API-Key',
  authenticate: (_request, key) => applications.get(key),
});

export const app = new OpenAPIHono();
app.onError(vouchErrorHandler());
app.use('/api/*', requireAuth(bearer)); // every /api route needs the Bearer token…

const ok = (schema: z.ZodType) => ({
  200: { description: 'OK', content: { 'application/json': { schema } } },
});
const bearerRoute = createRoute({
  method: 'get',
  path: '/api/bearer',
  middleware: [requireAuth(bearer)] as const, // the same, said here to type c.get('auth')
  responses: ok(z.object({ token: z.string() })),
});
app.openapi(bearerRoute, (c) => c.json({ token: c.get('auth') }));

const headerKeyRoute = createRoute({
  method: 'get',
  path: '/api/headerkey',
  middleware: [requireAuth(apiKey)] as const, // …this one takes an API key instead…
  responses: ok(z.object({ hello: z.string() })),
});
app.openapi(headerKeyRoute, (c) => c.json({ hello: c.get('auth').name }));

const healthRoute = createRoute({
  method: 'get',
  path: '/api/health',
  middleware: [requireAuth(null)] as const, // …and this one nothing
  responses: ok(z.object({ status: z.string() })),
});
app.openapi(healthRoute, (c) => c.json({ status: 'ok' }));

// The description and the docs page, public, with Swagger UI's files served from swagger-ui-dist.
const info = { title: 'On Hono', version: '1.0.0' };
app.get('/api/openapi.json', requireAuth(null), (c) =>
  c.json(documentSecurity(app, app.getOpenAPI31Document({ openapi: '3.1.0', info }))),
);
app.get(
  '/api/docs',
  requireAuth(null),
  swaggerUI({
    title: info.title,
    url: '/api/openapi.json',
    baseUrl: '/api/docs',
    persistAuthorization: true, // tokens and keys only, never a password:
    plugins: [persistTokensOnlySource()],
  }),
);
app.use(
  '/api/docs/swagger-ui-dist/*',
  requireAuth(null),
  serveStatic({
    root: fileURLToPath(new URL('.', import.meta.resolve('swagger-ui-dist/package.json'))),
    rewriteRequestPath: (path) => path.replace('/api/docs/swagger-ui-dist', ''),
  }),
);

const port = Number(process.env.PORT ?? 8000);
if (process.argv[1] === import.meta.filename) serve({ fetch: app.fetch, port }); // run as a program
