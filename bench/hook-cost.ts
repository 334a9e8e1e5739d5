// What each route's onRequest hook costs inside the server, with every route under one mixed
// load: every connection sends the routes in turn, so a change of the machine's speed slows all
// the hooks alike, and they compare to within a few nanoseconds where requests/s compare to
// within a few per cent. See bench/README.md.
//
//   npm run bench:hooks -- [--duration 1] [--rounds 30] [--warmup 3] [--connections 50]
import autocannon from 'autocannon';
import { benchHeaders, benchRoutes } from './app.js';
import { summariseHooks, type HookRound } from './hook-timer.js';
import { requireAll2xx } from './load.js';
import { epilogue, pinApart, preamble, repo, run, versionOf } from './machine.js';
import { parseOptions } from './options.js';
import { markdownTable, median } from './report.js';
import { startServer } from './server-process.js';

/** The empty hook: what wrapping and calling any hook costs. */
const FLOOR = '/hooked';

async function main(): Promise<number> {
  const { load: options } = parseOptions({});
  const started = await preamble('vouch hook cost benchmark', ['src'], {
    versions: `fastify ${versionOf('fastify')}, autocannon ${versionOf('autocannon')}`,
    settings:
      `${options.rounds} rounds × ${options.duration} s of every route in turn on each ` +
      `connection, warm-up ${options.warmup} s, ${options.connections} connections`,
  });
  const server = await startServer(repo, [], { timeHooks: true });
  console.log(`cpus      ${pinApart(server.pid)}`);
  const requests = benchRoutes.map((route) => ({ method: 'GET' as const, path: route.path }));
  const fire = async (seconds: number) =>
    requireAll2xx(
      await autocannon({
        url: `http://127.0.0.1:${server.port}`,
        headers: { ...benchHeaders },
        connections: options.connections,
        duration: seconds,
        requests,
      }),
      'mixed load',
    );
  const rounds: HookRound[] = [];
  try {
    if (options.warmup > 0) await fire(options.warmup);
    await server.hooks();
    for (let round = 1; round <= options.rounds; round++) {
      const cpuBefore = await server.cpu();
      const result = await fire(options.duration);
      const cpuAfter = await server.cpu();
      const cpu = cpuAfter.user + cpuAfter.system - (cpuBefore.user + cpuBefore.system);
      const times = await server.hooks();
      const serverNanosPerRequest = (cpu * 1000) / result.requests.total;
      rounds.push({ times, serverNanosPerRequest });
      console.error(
        `round ${String(round).padStart(2)}/${options.rounds}  ` +
          `${Math.round(result.requests.total / result.duration).toLocaleString('en-US')} req/s, ` +
          `server ${(serverNanosPerRequest / 1000).toFixed(1)} µs/req; ` +
          Object.entries(times)
            .map(([path, t]) => `${path} ${Math.round(t.nanoseconds / t.requests)} ns`)
            .join(', '),
      );
    }
  } finally {
    await server.close();
  }

  const summaries = summariseHooks(rounds, FLOOR);
  const serverMicros = median(rounds.map((round) => round.serverNanosPerRequest)) / 1000;
  const ns = (n: number) => `${Math.round(n)}`;
  console.log(
    `\n${markdownTable([
      ['route', 'hook ns/req', 'beyond empty hook, ns', '95 % CI', 'share of a request'],
      ...summaries.map((s) => [
        s.path,
        ns(s.nanoseconds),
        s.path === FLOOR ? '—' : ns(s.beyondFloor),
        s.path === FLOOR ? '—' : `${ns(s.beyondFloorInterval[0])}–${ns(s.beyondFloorInterval[1])}`,
        s.path === FLOOR ? '—' : `${(s.shareOfRequest * 100).toFixed(2)} %`,
      ]),
    ])}\n`,
  );
  console.log(
    `server    ${serverMicros.toFixed(1)} µs of CPU per request (median over rounds, every route)`,
  );
  epilogue('hook-cost', started, [], { settings: options, rounds, summaries });
  return 0;
}

run(main);
