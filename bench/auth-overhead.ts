// What authentication costs a request: autocannon against the same Fastify route with no auth,
// HttpBearer, APIKeyHeader, a list of three and @fastify/bearer-auth, in one run, each figure
// given as a ratio to the no-auth route of that same run. See bench/README.md.
//
//   npm run bench -- [--duration 1] [--rounds 30] [--warmup 3] [--connections 50]
//                    [--pipelining 1] [--routes /noauth,/bearer] [--strict] [--profile]
//
// The server runs in a child process (bench/server.ts) and autocannon here, so the two do not
// share an event loop. Each route is warmed up, then measured `rounds` times, each run between
// two runs of /noauth, the other routes in the order of a Williams design (each follows every
// other one equally often); every run is compared with the /noauth runs around it. The server's
// CPU time per request and the CPU that other processes used are measured too, to tell how far
// a run's ratios can be trusted.
import { BENCH_BODY, benchHeaders, selectRoutes, type BenchRoute } from './app.js';
import { rounds } from './load.js';
import { parseOptions, type LoadOptions } from './options.js';
import { epilogue, pinApart, preamble, run, repo, resultsDir, versionOf } from './machine.js';
import { kernelLine, saturationLine, summarise, table, type Run } from './report.js';
import { get, startServer } from './server-process.js';

/** Every single authenticator must keep at least this share of the no-auth route's requests/s. */
const TARGET = 0.95;

interface Settings extends LoadOptions {
  readonly routes: readonly BenchRoute[];
  readonly profile: boolean;
}

function settings(): Settings {
  const { load, read, flags } = parseOptions({
    routes: { type: 'string' },
    profile: { type: 'boolean', default: false },
  });
  const routes = selectRoutes(read.text('routes'));
  return { ...load, routes, profile: flags.profile === true };
}

/** Checks over a real socket that every route answers as the test says, before any timing. */
async function preflight(port: number, routes: readonly BenchRoute[]): Promise<void> {
  const expected = JSON.stringify(BENCH_BODY);
  for (const route of routes) {
    const ok = await get(port, route.path, benchHeaders);
    if (ok.status !== 200 || ok.body !== expected) {
      throw new Error(`${route.path} answered ${ok.status} ${ok.body} to the benchmark request`);
    }
    const header = route.credentialHeader;
    if (header === undefined) continue;
    const rest = Object.entries(benchHeaders).filter(([name]) => name !== header);
    const refused = await get(port, route.path, Object.fromEntries(rest));
    if (refused.status !== 401) {
      throw new Error(`${route.path} answered ${refused.status} without ${header}; expected 401`);
    }
  }
}

async function main(): Promise<number> {
  const options = settings();
  const { routes } = options;
  const versions = {
    fastify: versionOf('fastify'),
    autocannon: versionOf('autocannon'),
    '@fastify/bearer-auth': versionOf('@fastify/bearer-auth'),
  };
  const started = await preamble('vouch auth overhead benchmark', ['src'], {
    versions:
      `fastify ${versions.fastify}, autocannon ${versions.autocannon}, ` +
      `@fastify/bearer-auth ${versions['@fastify/bearer-auth']}`,
    settings:
      `${options.rounds} rounds × ${options.duration} s per route, warm-up ${options.warmup} s, ` +
      `${options.connections} connections, pipelining ${options.pipelining}, ` +
      `load from ${options.client}`,
  });
  if (options.profile) {
    console.log('          server under --cpu-prof: the figures are not comparable');
  }

  const profileArgs = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}profiles`] : [];
  const server = await startServer(repo, profileArgs);
  const runs: Run[] = [];
  try {
    await preflight(server.port, routes);
    console.log(
      `server    pid ${server.pid}, http://127.0.0.1:${server.port}; routes answer 200/401`,
    );
    console.log(`cpus      ${pinApart(server.pid)}`);
    console.log('');
    const shots = routes.map((route) => ({ path: route.path, headers: benchHeaders }));
    runs.push(...(await rounds(server, shots, { ...options, seconds: options.duration })));
  } finally {
    await server.close();
  }

  const compared = routes.map((route) => ({
    ...route,
    target: route.kind === 'single' ? TARGET : null,
  }));
  const summaries = summarise(compared, runs);
  console.log(`\n${table(summaries)}\n`);
  const misses = summaries.filter((s) => s.pass === false);
  console.log(
    misses.length === 0
      ? `every single authenticator ≥ ${TARGET}× the no-auth route`
      : `below ${TARGET}×: ${misses.map((s) => `${s.path} (${s.pairedRatio.toFixed(3)}×)`).join(', ')}`,
  );
  console.log(saturationLine(runs, routes[0]!.path, options.client));
  const kernel = kernelLine(
    runs,
    routes.map((route) => route.path),
  );
  if (kernel !== undefined) console.log(kernel);
  epilogue(
    'auth-overhead',
    started,
    runs.flatMap((run) => (run.otherCores === null ? [] : [run.otherCores])),
    {
      versions,
      settings: { ...options, routes: routes.map((route) => route.path) },
      target: TARGET,
      summaries,
      runs,
    },
  );
  if (options.profile) console.log(`profiles  ${resultsDir}profiles/`);
  return misses.length > 0 && options.strict ? 1 : 0;
}

run(main);
