// What authentication costs in the illustrated service, with its real store: autocannon against
// /api/bearer (a real token), /api/headerkey (a real key) and /api/pets (a real session), and
// /api/health (one store read, no authentication), each compared with /api/version (neither) in
// the same run; then the service's memory across a million authenticated requests.
//
//   npm run bench:service -- [--duration 1] [--rounds 20] [--warmup 2] [--connections 50]
//     [--pipelining 1] [--store sqlite|postgres|postgres+redis] [--log-level warn]
//     [--credential-cache <seconds>] [--memory-requests 1000000] [--memory-samples 20]
import { fire, rounds, verify } from './load.js';
import { save, parseOptions, pinApart, preamble, run, versionOf } from './machine.js';
import { memoryVerdict, type MemoryPoint } from './memory.js';
import type { ServerProcess } from './process.js';
import { summarise, table } from './report.js';
import {
  launch,
  serviceRoutes,
  shotOf,
  type BenchStore,
  type ServiceCredentials,
} from './service-process.js';

const STORES = ['sqlite', 'postgres', 'postgres+redis'];
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

/** `total` authenticated requests in `samples` parts, the memory sampled before and after each. */
async function memoryRun(
  service: ServerProcess,
  credentials: ServiceCredentials,
  total: number,
  samples: number,
  load: { connections: number; pipelining: number },
): Promise<MemoryPoint[]> {
  const routes = serviceRoutes.filter((route) => route.credential !== undefined);
  const points: MemoryPoint[] = [];
  let sent = 0;
  for (let i = 0; i <= samples; i++) {
    if (i > 0) {
      const shot = shotOf(routes[i % routes.length]!, credentials);
      const part = { requests: Math.ceil(total / samples) };
      sent += (await fire(service.port, shot, part, load)).requests.total;
    }
    const { heapUsed, rss } = await service.memory();
    points.push({ requests: sent, heapUsed, rss });
    console.error(
      `memory ${sent.toLocaleString('en-US').padStart(10)} requests  heap ${mib(heapUsed)}`,
    );
  }
  return points;
}

async function main(): Promise<number> {
  const { load, text, number } = parseOptions({
    store: { type: 'string' },
    'log-level': { type: 'string' },
    'credential-cache': { type: 'string' },
    'memory-requests': { type: 'string' },
    'memory-samples': { type: 'string' },
  });
  const store = text('store') ?? 'sqlite';
  if (!STORES.includes(store)) throw new Error(`--store: ${STORES.join(', ')}`);
  const cache = text('credential-cache');
  const env = {
    LOG_LEVEL: text('log-level') ?? 'warn',
    ...(cache !== undefined && { CREDENTIAL_CACHE_SECONDS: cache }),
  };
  const memoryRequests = Math.round(number('memory-requests', 1_000_000, 0));
  const memorySamples = Math.round(number('memory-samples', 20, 2));
  const started = preamble('vouch service load', ['src', 'service'], {
    versions: `fastify ${versionOf('fastify')}, autocannon ${versionOf('autocannon')}`,
    settings:
      `${load.rounds} rounds × ${load.seconds} s a run, warm-up ${load.warmup} s, ` +
      `${load.connections} connections, pipelining ${load.pipelining}, store ${store}, ` +
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join(', '),
  });

  const { service, credentials, stop } = await launch(store as BenchStore, env);
  try {
    for (const route of serviceRoutes) {
      await verify(service.port, shotOf(route, credentials), route.body, route.credential);
    }
    console.log('checked   every route answers 200 and its body with its credential, 401 without');
    console.log(`cpus      ${pinApart([service.pid])}\n`);
    const [first, ...others] = serviceRoutes.map((route) => shotOf(route, credentials));
    const runs = await rounds([{ server: service, shots: [first!, ...others] }], load);
    const points =
      memoryRequests > 0
        ? await memoryRun(service, credentials, memoryRequests, memorySamples, load)
        : [];
    const summaries = summarise(
      serviceRoutes.map((route) => route.path),
      runs,
    );
    console.log(`\n${table(summaries)}\n`);
    const memory = points.length > 1 ? memoryVerdict(points) : undefined;
    if (memory !== undefined) {
      const [from, to] = [mib(memory.first.heapUsed), mib(memory.last.heapUsed)];
      console.log(`memory    heap after GC ${from} → ${to}: ${memory.flat ? 'flat' : 'NOT FLAT'}`);
    }
    save('service-load', started, { settings: load, store, env, summaries, runs, points });
    return memory?.flat === false ? 1 : 0;
  } finally {
    await stop();
  }
}

run(main);
