// Is what vouch costs flat in the number of routes? On Express 5 and Hono 4, and on Fastify 5 as
// the control, apps of 10, 100 and 1,000 routes with vouch in both shapes beside the same routes
// without authentication (bench/route-count-apps.ts), timed in rounds as `npm run bench` times its
// routes. See bench/README.md.
//
//   npm run bench:routes -- [--duration 1] [--rounds 20] [--warmup 2] [--connections 50] [--pipelining 1]
//     [--generator wrk|autocannon]
import { fileURLToPath } from 'node:url';
import { rounds, verify, type Group } from './load.js';
import { parseOptions, pinApart, preamble, save } from './machine.js';
import { startServer, type ServerProcess } from './process.js';
import { summarise, table } from './report.js';
import { COUNTS, ENGINES, routeCountShots } from './route-count-apps.js';
import { routeCountTable } from './route-count-table.js';

const PACKAGES = ['express', 'hono', '@hono/node-server', 'fastify', 'autocannon'];

const { load, settings, generator } = parseOptions();
const started = preamble('vouch with 10, 100 and 1,000 routes', PACKAGES, settings, generator);
const script = fileURLToPath(new URL('./server.ts', import.meta.url));
const servers: ServerProcess[] = [];
try {
  const groups: Group[] = [];
  for (const engine of ENGINES) {
    for (const count of COUNTS) {
      const shots = routeCountShots(engine, count);
      const args = ['routes', engine, String(count)];
      const server = await startServer(script, { args, readyPath: shots[0].path });
      servers.push(server);
      for (const shot of shots) await verify(server.port, shot);
      groups.push({ server, shots });
    }
  }
  console.log('checked   every route answers 200 and the body with its credential, 401 without');
  console.log(`cpus      ${pinApart(servers.map((server) => server.pid))}\n`);
  const runs = await rounds(groups, load);
  const summaries = summarise(
    groups.flatMap((group) => group.shots.map((shot) => shot.label)),
    runs,
  );
  console.log(`\n${table(summaries)}\n\n${routeCountTable(summaries, runs)}\n`);
  save('route-count', started, { settings: load, summaries, runs });
} finally {
  for (const server of servers) await server.close();
}
