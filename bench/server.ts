// One app of bench/apps.ts, served on 127.0.0.1:$PORT in a process of its own (started by
// bench/process.ts with bench/probe.ts loaded), so that it shares no event loop with autocannon.
//   node --import tsx bench/server.ts fastify|express|hono
import { serve } from '@hono/node-server';
import { expressApp, fastifyApp, honoApp } from './apps.js';

const port = Number(process.env.PORT);
const name = process.argv[2];
if (name === 'express') {
  expressApp().listen(port, '127.0.0.1');
} else if (name === 'hono') {
  serve({ fetch: honoApp().fetch, hostname: '127.0.0.1', port });
} else {
  await (await fastifyApp()).listen({ host: '127.0.0.1', port });
}
process.once('SIGTERM', () => process.exit(0));
