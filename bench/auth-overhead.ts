// What authentication costs a request: autocannon against the same Fastify route with no auth,
// HttpBearer, APIKeyHeader, a list of three and @fastify/bearer-auth, in one run, each figure
// given as a ratio to the no-auth route of that same run. See bench/README.md.
//
//   npm run bench -- [--duration 3] [--rounds 10] [--warmup 3] [--connections 50]
//                    [--pipelining 1] [--routes /none,/bearer] [--strict] [--profile]
//
// The server runs in a child process (bench/server.ts) and autocannon here, so the two do not
// share an event loop. Each route is warmed up, then measured `rounds` times in an interleaved
// order that rotates every round; the median requests/s of each route is compared with the
// median of /none. The server's CPU time per request and the CPU that other processes used are
// measured too, to tell how far a run's ratios can be trusted.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_BODY, benchHeaders, benchRoutes, type BenchRoute } from './app.js';
import { median, summarise, table, type Run } from './report.js';
import { get, startServer, type ServerProcess } from './server-process.js';

/** Every single authenticator must keep at least this share of the no-auth route's requests/s. */
const TARGET = 0.95;

const repo = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

interface Settings {
  readonly duration: number;
  readonly rounds: number;
  readonly warmup: number;
  readonly connections: number;
  readonly pipelining: number;
  readonly routes: readonly BenchRoute[];
  readonly strict: boolean;
  readonly profile: boolean;
}

function settings(): Settings {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      pipelining: { type: 'string' },
      routes: { type: 'string' },
      strict: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
    },
  });
  // A flag wins over its BENCH_* environment variable, which wins over the default.
  const number = (name: string, fallback: number, min: number) => {
    const raw =
      (values as Record<string, unknown>)[name] ?? process.env[`BENCH_${name.toUpperCase()}`];
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name}: a number ≥ ${min}`);
    return value;
  };
  const wanted = (values.routes ?? process.env.BENCH_ROUTES)?.split(',');
  const unknown = wanted?.filter((path) => !benchRoutes.some((route) => route.path === path));
  if (unknown !== undefined && unknown.length > 0) {
    throw new Error(`--routes: no route ${unknown.join(', ')}`);
  }
  // The baseline is always measured: every figure is relative to it.
  const routes = benchRoutes.filter(
    (route, i) => i === 0 || wanted === undefined || wanted.includes(route.path),
  );
  return {
    duration: number('duration', 3, 1),
    rounds: Math.round(number('rounds', 10, 1)),
    warmup: number('warmup', 3, 0),
    connections: Math.round(number('connections', 50, 1)),
    pipelining: Math.round(number('pipelining', 1, 1)),
    routes,
    strict: values.strict || process.env.BENCH_STRICT === '1',
    profile: values.profile,
  };
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

/** One autocannon run; throws unless every response was a 2xx. */
async function fire(port: number, route: BenchRoute, seconds: number, options: Settings) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${route.path}`,
    headers: { ...benchHeaders },
    connections: options.connections,
    pipelining: options.pipelining,
    duration: seconds,
  });
  const { non2xx, errors, timeouts } = result;
  const completed = result.requests.total;
  if (non2xx !== 0 || errors !== 0 || timeouts !== 0 || result['2xx'] !== completed) {
    throw new Error(
      `${route.path}: not every response was a 2xx (2xx ${result['2xx']} of ${completed}, ` +
        `non-2xx ${non2xx}, errors ${errors}, timeouts ${timeouts}); nothing broken is timed`,
    );
  }
  return result;
}

/** CPU time spent by the whole machine so far, in µs, from /proc/stat (Linux only). */
function machineBusyMicros(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal …, in USER_HZ (100 per second).
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (ticks.length < 8 || ticks.some(Number.isNaN)) return undefined;
    const idle = ticks[3]! + ticks[4]!;
    return (ticks.reduce((sum, tick) => sum + tick, 0) - idle) * 10_000;
  } catch {
    return undefined;
  }
}

async function measure(
  server: ServerProcess,
  route: BenchRoute,
  round: number,
  options: Settings,
): Promise<Run> {
  const serverBefore = await server.cpu();
  const clientBefore = process.cpuUsage();
  const machineBefore = machineBusyMicros();
  const wallBefore = performance.now();
  const result = await fire(server.port, route, options.duration, options);
  const wallMicros = (performance.now() - wallBefore) * 1000;
  const machineAfter = machineBusyMicros();
  const client = process.cpuUsage(clientBefore);
  const clientMicros = client.user + client.system;
  const serverMicros = (await server.cpu()) - serverBefore;
  const others =
    machineBefore === undefined || machineAfter === undefined
      ? null
      : Math.max(0, machineAfter - machineBefore - serverMicros - clientMicros) / wallMicros;
  const requests = result.requests.total;
  return {
    round,
    path: route.path,
    requestsPerSecond: requests / result.duration,
    requests,
    seconds: result.duration,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    serverMicrosPerRequest: serverMicros / requests,
    serverCpuShare: serverMicros / wallMicros,
    clientCpuShare: clientMicros / wallMicros,
    otherCores: others,
  };
}

function git(...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function versionOf(name: string): string | undefined {
  try {
    const file = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** How many cores the machine keeps busy over `ms` milliseconds (Linux only). */
async function busyCores(ms: number): Promise<number | undefined> {
  const before = machineBusyMicros();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineBusyMicros();
  return before === undefined || after === undefined ? undefined : (after - before) / (ms * 1000);
}

const loads = () => loadavg().map((load) => Number(load.toFixed(2)));

async function main(): Promise<number> {
  const options = settings();
  const { routes } = options;
  const machine = {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    platform: `${process.platform} ${process.arch}`,
    loadavgBefore: loads(),
  };
  const versions = {
    fastify: versionOf('fastify'),
    autocannon: versionOf('autocannon'),
    '@fastify/bearer-auth': versionOf('@fastify/bearer-auth'),
  };
  const commit = git('rev-parse', '--short', 'HEAD');
  const srcDirty = (git('status', '--porcelain', '--', 'src') ?? '') !== '';
  const date = new Date().toISOString();

  console.log('vouch auth overhead benchmark');
  console.log(`date      ${date}`);
  console.log(`node      ${machine.node} (${machine.platform})`);
  console.log(`cpu       ${machine.cpu} × ${machine.cores}`);
  console.log(
    `versions  fastify ${versions.fastify}, autocannon ${versions.autocannon}, ` +
      `@fastify/bearer-auth ${versions['@fastify/bearer-auth']}`,
  );
  console.log(
    `commit    ${commit ?? 'unknown'}${srcDirty ? ' + uncommitted changes in src/' : ''}`,
  );
  console.log(
    `settings  ${options.rounds} rounds × ${options.duration} s per route, ` +
      `warm-up ${options.warmup} s, ${options.connections} connections, ` +
      `pipelining ${options.pipelining}`,
  );
  const busyBefore = await busyCores(1000);
  console.log(
    `load      ${machine.loadavgBefore.join(' ')} (1, 5, 15 min)` +
      (busyBefore === undefined ? '' : `; ${busyBefore.toFixed(2)} cores busy just before start`),
  );
  if (busyBefore !== undefined && busyBefore > 0.2) {
    console.log(
      `          warning: other processes are busy; the server and autocannon need a core ` +
        `each, so req/s will vary from round to round`,
    );
  }
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
    console.log('');
    if (options.warmup > 0) {
      for (const route of routes) await fire(server.port, route, options.warmup, options);
    }
    for (let round = 1; round <= options.rounds; round++) {
      // Rotate the order each round so that no route always runs first, last or after another.
      const order = routes.map((_, i) => routes[(i + round - 1) % routes.length]!);
      for (const route of order) {
        const run = await measure(server, route, round, options);
        runs.push(run);
        console.error(
          `round ${String(round).padStart(2)}/${options.rounds}  ${route.path.padEnd(21)}` +
            `${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s  ` +
            `server ${run.serverMicrosPerRequest.toFixed(1).padStart(5)} µs/req, ` +
            `CPU ${Math.round(run.serverCpuShare * 100)} %; ` +
            `autocannon CPU ${Math.round(run.clientCpuShare * 100)} %` +
            (run.otherCores === null ? '' : `; others ${run.otherCores.toFixed(2)} cores`),
        );
      }
    }
  } finally {
    await server.close();
  }

  const loadavgAfter = loads();
  const summaries = summarise(routes, runs, TARGET);
  console.log(`\n${table(summaries)}\n`);
  const misses = summaries.filter((s) => s.pass === false);
  console.log(
    misses.length === 0
      ? `every single authenticator ≥ ${TARGET}× the no-auth route`
      : `below ${TARGET}×: ${misses.map((s) => `${s.path} (${s.ratio.toFixed(3)}×)`).join(', ')}`,
  );
  const others = runs.flatMap((run) => (run.otherCores === null ? [] : [run.otherCores]));
  if (others.length > 0) {
    console.log(
      `others    other processes kept ${median(others).toFixed(2)} cores busy (median; ` +
        `max ${Math.max(...others).toFixed(2)}) while routes were timed`,
    );
  }
  console.log(`load      ${loadavgAfter.join(' ')} after the run`);

  mkdirSync(resultsDir, { recursive: true });
  const file = `${resultsDir}auth-overhead-${date.replace(/[:.]/g, '-')}.json`;
  const report = {
    date,
    machine: { ...machine, busyCoresBefore: busyBefore ?? null, loadavgAfter },
    versions,
    commit,
    srcDirty,
    settings: { ...options, routes: routes.map((route) => route.path) },
    target: TARGET,
    summaries,
    runs,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results   ${file}`);
  if (options.profile) console.log(`profiles  ${resultsDir}profiles/`);

  return misses.length > 0 && options.strict ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
