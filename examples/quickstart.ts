import Fastify from 'fastify';
import { APIKeyHeader, HttpBearer } from 'vouch';
import { vouch, withAuth } from 'vouch/fastify';
import { vouchOpenapi } from 'vouch/fastify/openapi';

const applications = new Map([['demo-key', { name: 'demo app' }]]);

const bearer = new HttpBearer({
  tokens: new Map([[process.env.API_TOKEN ?? 'change-me', 'admin']]), // static, constant-time
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

const port = Number(process.env.PORT ?? 8000);
if (process.argv[1] === import.meta.filename) await app.listen({ port }); // run as a program
