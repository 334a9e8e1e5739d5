import express from 'express';
import swaggerUi from 'swagger-ui-express';
import { APIKeyHeader, HttpBearer } from 'vouch';
import {
  authOf,
  documentSecurity,
  persistTokensOnly,
  requireAuth,
  vouchErrorHandler,
} from 'vouch/express';

const applications = new Map([['demo-key', { name: 'demo app' }]]);

const bearer = new HttpBearer({
  tokens: new Map([[process.env.API_TOKEN ?? 'change-me', 'admin']]), // static, constant-time
});
const apiKey = new APIKeyHeader({
  paramName: 'X-API-Key',
  authenticate: (_request, key) => applications.get(key),
});

export const app = express();
app.use('/api', requireAuth(bearer)); // every /api route needs the Bearer token…
app.get('/api/bearer', (req, res) => {
  res.json({ token: authOf(req, bearer) });
});
app.get('/api/headerkey', requireAuth(apiKey), (req, res) => {
  res.json({ hello: authOf(req, apiKey).name }); // …this one takes an API key instead…
});
app.get('/api/health', requireAuth(null), (_req, res) => {
  res.json({ status: 'ok' }); // …and this one nothing
});
app.use(vouchErrorHandler());

// The description: operations as you write them (or a generator does); vouch adds the security.
const ok = { 200: { description: 'OK' } };
const document = {
  openapi: '3.1.0',
  info: { title: 'On Express', version: '1.0.0' },
  paths: {
    '/api/bearer': { get: { responses: ok } },
    '/api/headerkey': { get: { responses: ok } },
    '/api/health': { get: { responses: ok } },
  },
};
app.get('/api/openapi.json', requireAuth(null), (_req, res) => {
  res.json(documentSecurity(app, document));
});
const page = swaggerUi.setup(undefined, {
  customSiteTitle: document.info.title,
  // Authorization kept across reloads: tokens and keys only, never a password.
  swaggerOptions: {
    url: '/api/openapi.json',
    persistAuthorization: true,
    plugins: [persistTokensOnly()],
  },
});
app.use('/api/docs', requireAuth(null), swaggerUi.serve, page);

const port = Number(process.env.PORT ?? 8000);
if (process.argv[1] === import.meta.filename) app.listen(port); // run as a program
