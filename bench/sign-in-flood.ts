// A flood of wrong-password sign-ins against the illustrated service while other clients use its
// cached Bearer token; see bench/README.md. Each of the flood's keep-alive connections sends its
// next sign-in as soon as the last is answered, as a client that ignores Retry-After does, each
// another user from another address, so that no failed sign-in limit holds any back. The readers
// of /api/bearer, on keep-alive connections and on a new connection per request, run in a process
// of their own (flood-readers.ts), so that the flood's client never delays their clocks.
//
//   npm run bench:flood -- [--connections 300] [--seconds 10]
import { parseArgs } from 'node:util';
import { ANSWER_WITHIN_MS, checkFloodSignIn, flood, readers, rssOf } from './flood-clients.js';
import { verify } from './load.js';
import { preamble, save } from './machine.js';
import { launch } from './service-process.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '10' },
  },
});
const [connections, seconds] = [Number(values.connections), Number(values.seconds)];
if (!(Number.isInteger(connections) && connections >= 1 && seconds >= 3)) {
  throw new Error('--connections: a whole number ≥ 1; --seconds: ≥ 3');
}

const started = preamble(
  'vouch sign-in flood',
  ['fastify', 'autocannon'],
  `${connections} connections signing in back to back for ${seconds} s; /api/bearer every 2 ms ` +
    'over 10 keep-alive connections and every 20 ms on a new connection',
);
// At the service's default log level, as `npm start` runs it: every request is logged.
const { service, shots, stop } = await launch('sqlite', {
  TRUST_PROXY: 'loopback',
  LOG_LEVEL: 'info',
});
let run;
try {
  const bearer = shots.find((shot) => shot.path === '/api/bearer')!;
  // Before any timing: the readers' route answers 200 with its token and 401 without it or with
  // it spoilt, and a sign-in of the flood is refused as a wrong password.
  await verify(service.port, bearer);
  await checkFloodSignIn(service.port);
  const reading = await readers({ ...bearer, port: service.port, seconds, pid: service.pid });
  // The readers alone first: what this machine gives them now, without the flood.
  const alone = await reading.run();
  const baseRss = rssOf(service.pid);
  const [signIns, read] = await Promise.all([
    flood(service.port, connections, seconds),
    reading.run(),
  ]);
  reading.close();
  run = { signIns, read, alone, baseRss };
} finally {
  await stop();
}
const { signIns, read, alone, baseRss } = run;
for (const { statuses } of [alone, read]) {
  if (Object.keys(statuses).join() !== '200') {
    throw new Error(`/api/bearer answered other than 200: ${JSON.stringify(statuses)}`);
  }
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const statuses = Object.entries(signIns.statuses).map(([status, count]) => `${count} × ${status}`);
console.log(
  `\nsign-ins  ${signIns.answers.count.toLocaleString('en-US')} answered (${statuses.join(', ')}), ` +
    `p99 ${ms(signIns.answers.p99)}, slowest ${ms(signIns.answers.max)}`,
);
const within = ms(ANSWER_WITHIN_MS);
const peak = Math.max(baseRss, read.peakRss);
const verdicts = [
  [
    `every sign-in answered within ${within}`,
    `${signIns.late} answered later, ${signIns.unanswered} unanswered after ${within} at the end`,
    signIns.late === 0 && signIns.unanswered === 0,
  ],
  ['RSS under 250 MB', `${mb(baseRss)} → peak ${mb(peak)}`, peak < 250e6],
  ...(['keepAlive', 'newConnection'] as const).map((reader) => {
    const { count, p99, max } = read[reader];
    const name = reader === 'keepAlive' ? 'keep-alive' : 'new connections';
    return [
      `/api/bearer p99 under 50 ms, ${name}`,
      `p99 ${p99.toFixed(1)} ms (alone ${alone[reader].p99.toFixed(1)} ms), slowest ${ms(max)}, ` +
        `over ${count.toLocaleString('en-US')}`,
      p99 < 50,
    ] as const;
  }),
] as const;
for (const [target, figure, met] of verdicts) {
  console.log(`${met ? 'met    ' : 'NOT MET'}   ${target}: ${figure}`);
}
save('sign-in-flood', started, { signIns, readers: read, readersAlone: alone, baseRss });
process.exitCode = verdicts.every(([, , met]) => met) ? 0 : 1;
