// A flood of wrong-password sign-ins against the illustrated service while a client keeps using
// its cached Bearer token; see bench/README.md. Both clients are wrk, far cheaper than a JavaScript
// client, so that what is measured is the service. Each sign-in comes from another address as
// another user (the service trusts X-Forwarded-For from loopback here), so that no failed sign-in
// limit holds any back and each costs a real scrypt check. The Bearer client paces itself (10
// connections, 20 ms between requests: about 500 requests/s), as real clients do, so that its p99
// is the service's responsiveness rather than the queue of a server it saturates.
//
//   npm run bench:flood -- [--connections 300] [--seconds 10]
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { verify } from './load.js';
import { preamble, save } from './machine.js';
import { launch } from './service-process.js';

/** The service's resident memory now, from the kernel: no collection, no IPC. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024;
}

// What both wrk clients print at the end, as one JSON line: requests, p99 and slowest answer (µs),
// socket errors, and the statuses every thread saw (wrk runs `done` apart from the threads; it
// reaches them through `setup`).
const REPORT_LUA = `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init() n = 0; statuses = {} end
function response(status) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      table.insert(counts, string.format('"%d":%d', status, count))
    end
  end
  local e = summary.errors
  io.write(string.format('{"requests":%d,"p99":%d,"max":%d,"failed":%d,"timeouts":%d,"statuses":{%s}}\\n',
    summary.requests, latency:percentile(99), latency.max, e.connect + e.read + e.write, e.timeout,
    table.concat(counts, ",")))
end
`;
// Each request another username from another address; each connection sends one a second.
const FLOOD_LUA = `${REPORT_LUA}
function request()
  n = n + 1
  local address = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  local headers = { ["Content-Type"] = "application/x-www-form-urlencoded", ["X-Forwarded-For"] = address }
  return wrk.format("POST", "/api/token", headers, "username=flood-" .. n .. "&password=guess")
end
function delay() return 1000 end
`;

interface WrkReport {
  readonly requests: number;
  readonly p99: number;
  readonly max: number;
  readonly failed: number;
  readonly timeouts: number;
  readonly statuses: Readonly<Record<string, number>>;
}

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '10' },
  },
});
const [connections, seconds] = [Number(values.connections), Number(values.seconds)];
/** wrk, one thread for the run's length; throws when a socket failed other than by timing out. */
async function wrk(args: readonly string[]): Promise<WrkReport> {
  const run = await promisify(execFile)('wrk', ['-t1', `-d${seconds}s`, ...args]);
  const report = JSON.parse(run.stdout.trimEnd().split('\n').at(-1) ?? '') as WrkReport;
  if (report.failed > 0) throw new Error(`wrk: ${report.failed} sockets failed:\n${run.stdout}`);
  return report;
}
const started = preamble(
  'vouch sign-in flood',
  ['fastify'],
  `${connections} clients signing in once a second for ${seconds} s; /api/bearer at about 500 requests/s`,
);
const dir = await mkdtemp(join(tmpdir(), 'vouch-flood-'));
const [floodScript, paceScript] = [join(dir, 'flood.lua'), join(dir, 'pace.lua')];
await writeFile(floodScript, FLOOD_LUA);
await writeFile(paceScript, `${REPORT_LUA}\nfunction delay() return 20 end\n`);
const { service, shots, stop } = await launch('sqlite', { TRUST_PROXY: 'loopback' });
const bearer = shots.find((shot) => shot.path === '/api/bearer')!;
// Before any timing: the Bearer route answers, and a wrong password is refused (400).
await verify(service.port, bearer);
const base = `http://127.0.0.1:${service.port}`;
const url = `${base}/api/token`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const headers = { ...form, 'x-forwarded-for': '10.255.0.1' };
const wrong = await fetch(url, { method: 'POST', headers, body: 'username=x&password=guess' });
if (wrong.status !== 400) throw new Error(`a wrong sign-in answered ${wrong.status}, not 400`);
const baseRss = rssMiB(service.pid);
let peakRss = baseRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(service.pid))), 20);
const authorization = `authorization: ${bearer.headers.authorization}`;
const [flood, paced] = await Promise.all([
  wrk([`-c${connections}`, '--timeout', '2s', '-s', floodScript, url]),
  wrk(['-c10', '-H', authorization, '-s', paceScript, `${base}/api/bearer`]),
]);
clearInterval(sampler);
await stop();
await rm(dir, { recursive: true, force: true });

if (paced.timeouts > 0 || Object.keys(paced.statuses).join() !== '200') {
  throw new Error(`/api/bearer answered other than 200 during the flood: ${JSON.stringify(paced)}`);
}
const verdicts = [
  [
    'every sign-in answered within 2 s',
    `slowest ${(flood.max / 1000).toFixed(0)} ms, ${flood.timeouts} past 2 s`,
    flood.timeouts === 0 && flood.max < 2_000_000,
  ],
  ['RSS under 250 MB', `${baseRss.toFixed(0)} → peak ${peakRss.toFixed(0)} MiB`, peakRss < 250],
  [
    'cached Bearer p99 under 50 ms',
    `p99 ${(paced.p99 / 1000).toFixed(1)} ms over ${paced.requests} requests`,
    paced.p99 < 50_000,
  ],
] as const;
const answers = Object.entries(flood.statuses).map(([status, count]) => `${count} × ${status}`);
console.log(`\nsign-ins  ${answers.join(', ')}`);
for (const [target, figure, pass] of verdicts) {
  console.log(`${pass ? 'pass' : 'FAIL'}      ${target}: ${figure}`);
}
save('sign-in-flood', started, { flood, baseRss, peakRss, bearer: paced });
process.exitCode = verdicts.every(([, , pass]) => pass) ? 0 : 1;
