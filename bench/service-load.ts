// What authentication costs in the illustrated service, with its real store: wrk (or autocannon)
// against /api/bearer (a real token), /api/headerkey (a real key), /api/pets (a real session),
// /api/basic (a real password) and /api/health (one store read, no authentication), each compared
// with /api/version (neither) in the same run, the authenticated ones against their targets, and
// /api/version against the same route on bare Fastify; then the service's memory across a million
// authenticated requests.
//
//   npm run bench:service -- [--store sqlite|postgres|postgres+redis] [--memory-requests 1000000]
//     [--memory-samples 20] [--log-level warn] [--credential-cache <seconds>], and the load options
import { fire, rounds, verify, type Shot } from './load.js';
import { parseOptions, pinApart, preamble, save } from './machine.js';
import type { ServerProcess } from './process.js';
import { memoryVerdict, summarise, table, targetTable } from './report.js';
import {
  launch,
  launchBare,
  serviceTargets,
  steadyClient,
  type BenchStore,
} from './service-process.js';

const STORES = ['sqlite', 'postgres', 'postgres+redis'];
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

const { load, settings, generator, text, number } = parseOptions({
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

/** `--memory-requests` over `shots` in `--memory-samples` parts, the memory sampled around each. */
async function memoryRun(service: ServerProcess, shots: readonly Shot[]) {
  const points: { requests: number; heapUsed: number; rss: number }[] = [];
  const part = { requests: Math.ceil(memoryRequests / memorySamples) };
  let sent = 0;
  for (let i = 0; i <= memorySamples; i++) {
    if (i > 0) {
      const shot = shots[i % shots.length]!;
      sent += (await fire(service.port, shot, part, load)).requests;
    }
    const { heapUsed, rss } = await service.memory();
    points.push({ requests: sent, heapUsed, rss });
    console.error(
      `memory ${sent.toLocaleString('en-US').padStart(10)} requests  heap ${mib(heapUsed)}`,
    );
  }
  return points;
}

const envText = Object.entries(env).map(([name, value]) => `${name}=${value}`);
const details = [settings, `store ${store}`, ...envText].join(', ');
const started = preamble('vouch service load', ['fastify', 'autocannon'], details, generator);

const { service, shots, stop } = await launch(store as BenchStore, env);
const bare = await launchBare().catch(async (error: unknown) => {
  await stop();
  throw error;
});
try {
  for (const shot of shots) await verify(service.port, shot);
  await verify(bare.server.port, bare.shot);
  console.log('checked   every route answers 200 and its body with its credential, 401 without');
  console.log(`cpus      ${pinApart([service.pid, bare.server.pid])}`);
  const basic = shots.find((shot) => shot.path === '/api/basic')!;
  console.log(`steady    ${basic.path} once a second throughout, as a client in steady use\n`);
  const steady = steadyClient(service.port, basic);
  const runs = await rounds(
    [
      { server: service, shots: [shots[0]!, ...shots.slice(1)] },
      { server: bare.server, shots: [bare.shot] },
    ],
    load,
  ).finally(async () => {
    const { sent, failed } = await steady.stop();
    if (failed > 0) throw new Error(`the steady client: ${failed} of ${sent} not answered 200`);
  });
  const authenticated = shots.filter((shot) => shot.credential !== undefined);
  const points = memoryRequests > 0 ? await memoryRun(service, authenticated) : [];
  const labels = [...shots, bare.shot].map((shot) => shot.label);
  const summaries = summarise(labels, runs);
  const targets = targetTable(runs, serviceTargets(shots, bare.shot));
  console.log(`\n${table(summaries)}\n\n${targets}\n`);
  const memory = points.length > 1 ? memoryVerdict(points) : undefined;
  if (memory !== undefined) {
    const [from, to] = [mib(memory.first.heapUsed), mib(memory.last.heapUsed)];
    console.log(`memory    heap after GC ${from} → ${to}: ${memory.flat ? 'flat' : 'NOT FLAT'}`);
  }
  save('service-load', started, { settings: load, store, env, summaries, runs, points });
  if (memory?.flat === false) process.exitCode = 1;
} finally {
  await bare.server.close();
  await stop();
}
