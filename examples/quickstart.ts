import Fastify from 'fastify';
import { APIKeyHeader, HttpBearer, timingSafeMatcher } from 'vouch';
import { vouch, withAuth } from 'vouch/fastify';
import { vouchOpenapi } from 'vouch/openapi';

const isAdminToken = timingSafeMatcher(process.env.API_TOKEN ?? 'change-me');
const applications = new Map([['demo-key', { name: 'demo app' }]]);

const bearer = new HttpBearer({
  authenticate: (_request, token) => (isAdminToken(token) ? 'admin' : undefined),
});
const apiKey = new APIKeyHeader({
  paramName: 'X-API-Key',
  authenticate: (_request, key) => applications.get(key),
});

export const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
await app.register(vouch, { auth: bearer }); // every route needs the Bearer token…
await app.register(vouchOpenapi, { openapi: { info: { title: 'Quickstart', version: '1.0.0' } } });

app.get(
  '/api/bearer',
  withAuth(bearer, async ({ auth }) => ({ token: auth })),
);
app.get(
  '/api/headerkey',
  withAuth(apiKey, async ({ auth }) => `Hello, ${auth.name}`),
);
app.get('/api/health', { auth: null }, async () => ({ status: 'ok' })); // …except this one
