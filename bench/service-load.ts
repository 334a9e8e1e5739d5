// What authentication costs in the illustrated service, with its real SQLite store: autocannon
// against /api/bearer (a real token), /api/headerkey (a real key) and /api/pets (a real session),
// each compared with /api/version of the same service (no authentication, no store access) in the
// same run; then the service's memory across a million authenticated requests. See
// bench/README.md.
//
//   npm run bench:service -- [--duration 1] [--rounds 30] [--warmup 3] [--connections 50]
//                            [--pipelining 1] [--memory-requests 1000000] [--memory-samples 20]
//                            [--log-level warn] [--credential-cache <seconds>] [--strict]
//                            [--store sqlite|postgres|postgres+redis]
//
// The service is the real one (service/server.ts, as `npm start` runs it) in a child process, over
// a fresh database (a SQLite file in a temporary folder, or a new PostgreSQL database and Redis
// logical database on the local servers); its user and key come from its own CLI, its token and
// session from POST /api/token and POST /api/auth/login.
import { fire, rounds } from './load.js';
import { parseOptions, type LoadOptions } from './options.js';
import { epilogue, pinApart, preamble, run, versionOf } from './machine.js';
import { kernelLine, saturationLine, summarise, table, type Run } from './report.js';
import {
  seed,
  signIn,
  startService,
  workspace,
  type MemorySample,
  type ServiceCredentials,
  type BenchStore,
  type ServiceProcess,
} from './service-process.js';
import { routesFor, serviceRoutes } from './service-routes.js';
import { memoryVerdict, type MemoryPoint } from './memory.js';

interface Settings extends LoadOptions {
  readonly memoryRequests: number;
  readonly memorySamples: number;
  readonly logLevel: string;
  /** The service's CREDENTIAL_CACHE_SECONDS; `undefined`: the service's own default. */
  readonly credentialCache: string | undefined;
  readonly store: BenchStore;
}

const STORES: readonly BenchStore[] = ['sqlite', 'postgres', 'postgres+redis'];

function settings(): Settings {
  const { load, read } = parseOptions({
    'memory-requests': { type: 'string' },
    'memory-samples': { type: 'string' },
    'log-level': { type: 'string' },
    'credential-cache': { type: 'string' },
    store: { type: 'string' },
  });
  const store = read.text('store') ?? 'sqlite';
  if (!(STORES as readonly string[]).includes(store))
    throw new Error(`--store: ${STORES.join(', ')}`);
  return {
    ...load,
    memoryRequests: Math.round(read.number('memory-requests', 1_000_000, 0)),
    memorySamples: Math.round(read.number('memory-samples', 20, 2)),
    logLevel: read.text('log-level') ?? 'warn',
    credentialCache: read.text('credential-cache'),
    store: store as BenchStore,
  };
}

/** Checks over a real socket that every route answers as it should, before any timing. */
async function preflight(port: number, credentials: ServiceCredentials): Promise<void> {
  for (const route of serviceRoutes) {
    const shot = route.shot(credentials);
    const ok = await fetch(`http://127.0.0.1:${port}${shot.path}`, { headers: shot.headers });
    const body = await ok.text();
    if (ok.status !== 200 || !body.includes(route.bodyIncludes)) {
      throw new Error(`${route.path} answered ${ok.status} ${body} to the benchmark request`);
    }
    const refused = route.refused(credentials);
    if (refused === undefined) continue;
    const denied = await fetch(`http://127.0.0.1:${port}${refused.path}`, {
      headers: refused.headers,
    });
    if (denied.status !== 401) {
      throw new Error(`${route.path} answered ${denied.status} without its credential`);
    }
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

/**
 * Sends `total` authenticated requests in `samples` equal parts, the authenticated routes taking
 * turns, and samples the service's memory after a full collection before the first and after
 * each part.
 */
async function memoryRun(
  service: ServiceProcess,
  credentials: ServiceCredentials,
  options: Settings,
): Promise<MemoryPoint[]> {
  const routes = serviceRoutes.filter((route) => route.target !== null);
  const part = Math.ceil(options.memoryRequests / options.memorySamples);
  const sample = async (requests: number, path: string): Promise<MemoryPoint> => {
    const memory: MemorySample = await service.memory();
    const point = { requests, ...memory };
    console.error(
      `memory  ${requests.toLocaleString('en-US').padStart(10)} requests  ` +
        `heap ${mib(memory.heapUsed).padStart(10)}  rss ${mib(memory.rss).padStart(10)}  ` +
        `external ${mib(memory.external).padStart(9)}  ${path}`,
    );
    return point;
  };
  const points = [await sample(0, '(after the timed rounds)')];
  let sent = 0;
  for (let i = 0; i < options.memorySamples; i++) {
    const route = routes[i % routes.length]!;
    const requests = Math.min(part, options.memoryRequests - sent);
    if (requests <= 0) break;
    const result = await fire(service.port, route.shot(credentials), { requests }, options);
    sent += result.requests.total;
    points.push(await sample(sent, route.path));
  }
  return points;
}

async function main(): Promise<number> {
  const options = settings();
  const versions = {
    fastify: versionOf('fastify'),
    'better-sqlite3': versionOf('better-sqlite3'),
    autocannon: versionOf('autocannon'),
  };
  const started = await preamble('vouch service load benchmark', ['src', 'service'], {
    versions:
      `fastify ${versions.fastify}, better-sqlite3 ${versions['better-sqlite3']}, ` +
      `autocannon ${versions.autocannon}`,
    settings:
      `${options.rounds} rounds × ${options.duration} s per route, warm-up ${options.warmup} s, ` +
      `${options.connections} connections, pipelining ${options.pipelining}, ` +
      `load from ${options.client}, ` +
      `store ${options.store}, LOG_LEVEL=${options.logLevel}, ` +
      `CREDENTIAL_CACHE_SECONDS=${options.credentialCache ?? '(default)'}; memory over ${options.memoryRequests.toLocaleString('en-US')} ` +
      `requests in ${options.memorySamples} parts`,
  });

  const routes = routesFor(options.store, options.credentialCache === '0');
  const space = await workspace(options.store);
  const runs: Run[] = [];
  let points: MemoryPoint[] = [];
  try {
    const { password, apiKey } = await seed(space.env);
    const service = await startService(space.env, {
      logLevel: options.logLevel,
      credentialCache: options.credentialCache,
    });
    try {
      const credentials = { apiKey, ...(await signIn(service.port, password)) };
      await preflight(service.port, credentials);
      console.log(
        `service   pid ${service.pid}, http://127.0.0.1:${service.port}, ${options.store}; ` +
          'routes answer 200 with their credential, 401 without',
      );
      console.log(`cpus      ${pinApart(service.pid)}`);
      console.log('');
      const shots = routes.map((route) => route.shot(credentials));
      runs.push(...(await rounds(service, shots, { ...options, seconds: options.duration })));
      if (options.memoryRequests > 0) points = await memoryRun(service, credentials, options);
    } finally {
      await service.close();
    }
  } finally {
    await space.remove();
  }

  const summaries = summarise(routes, runs);
  console.log(`\n${table(summaries)}\n`);
  const misses = summaries.filter((s) => s.pass === false);
  console.log(
    misses.length === 0
      ? 'every authenticated route meets its target'
      : `below target: ${misses.map((s) => `${s.path} (${s.pairedRatio.toFixed(3)}× < ${s.target}×)`).join(', ')}`,
  );
  const memory = points.length > 1 ? memoryVerdict(points) : undefined;
  if (memory !== undefined) {
    console.log(
      `memory    heap after GC ${mib(memory.firstHeap)} → ${mib(memory.lastHeap)} ` +
        `(${memory.heapGrowth >= 0 ? '+' : '−'}${mib(Math.abs(memory.heapGrowth))}), ` +
        `trend ${memory.bytesPerMillion >= 0 ? '+' : '−'}${mib(Math.abs(memory.bytesPerMillion))} ` +
        `per million requests; rss ${mib(memory.firstRss)} → ${mib(memory.lastRss)}: ` +
        (memory.flat ? 'flat' : 'NOT FLAT'),
    );
  }
  console.log(saturationLine(runs, serviceRoutes[0]!.path, options.client));
  const kernel = kernelLine(
    runs,
    serviceRoutes.map((route) => route.path),
  );
  if (kernel !== undefined) console.log(kernel);
  epilogue(
    'service-load',
    started,
    runs.flatMap((run) => (run.otherCores === null ? [] : [run.otherCores])),
    {
      versions,
      settings: options,
      summaries,
      runs,
      memory: memory === undefined ? null : { ...memory, points },
    },
  );
  const failed = misses.length > 0 || memory?.flat === false;
  return failed && options.strict ? 1 : 0;
}

run(main);
