// One app of bench/apps.ts, or the apps of one engine and route count of bench/route-count-apps.ts,
// served on 127.0.0.1:$PORT in a process of its own (started by bench/process.ts with
// bench/probe.ts loaded), so that it shares no event loop with autocannon.
//   node --import tsx bench/server.ts fastify|express|hono    (Fastify's OAuth routes: $BENCH_OAUTH)
//   node --import tsx bench/server.ts nest|nestFastify       (bench/nest-apps.ts)
//   node --import tsx bench/server.ts routes Express|Hono|Fastify <count>
//   node --import tsx bench/server.ts bare   (the service's /api/version alone on bare Fastify)
import { serve } from '@hono/node-server';
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { expressApp, fastifyApp, honoApp, oauthSettings } from './apps.js';
import { ENGINES, routeCountListener, type Engine } from './route-count-apps.js';
import { versionRoute } from '../service/routes/health.js';

const port = Number(process.env.PORT);
const name = process.argv[2];
if (name === 'routes') {
  const [engine, count] = [process.argv[3] as Engine, Number(process.argv[4])];
  if (!ENGINES.includes(engine)) throw new Error(`engine: ${ENGINES.join(', ')}`);
  createServer(await routeCountListener(engine, count)).listen(port, '127.0.0.1');
} else if (name === 'nest' || name === 'nestFastify') {
  // Imported here only: Nest and its reflect-metadata stay out of the other servers' processes.
  const { nestListener } = await import('./nest-apps.js');
  const { listener } = await nestListener(name === 'nest' ? 'express' : 'fastify');
  createServer(listener).listen(port, '127.0.0.1');
} else if (name === 'bare') {
  // The same route, schema and answer as the service's, without anything the service adds.
  const app = Fastify();
  const file = new URL('../package.json', import.meta.url);
  versionRoute(app, (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version);
  await app.listen({ host: '127.0.0.1', port });
} else if (name === 'express') {
  expressApp().listen(port, '127.0.0.1');
} else if (name === 'hono') {
  serve({ fetch: honoApp().fetch, hostname: '127.0.0.1', port });
} else {
  await (await fastifyApp(oauthSettings(process.env))).listen({ host: '127.0.0.1', port });
}
process.once('SIGTERM', () => process.exit(0));
