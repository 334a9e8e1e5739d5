// The readers of bench:flood, forked by flood-clients.ts with their options as JSON: clients of
// another route that the flood must not slow down, paced as real clients are. One request every
// 2 ms over 10 keep-alive connections, and one every 20 ms on a new connection of its own (its
// connection's opening, and any wait in the service's accept queue, included). Each is timed from
// when it was sent to its answer's last byte. The service's resident memory is read from the
// kernel every 20 ms. Once loaded they say so, and run each time they are told.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { latencies, rssOf, type ReadersReport } from './flood-clients.js';

const { port, path, headers, seconds, pid } = JSON.parse(process.argv[2] ?? '') as {
  port: number;
  path: string;
  headers: Record<string, string>;
  seconds: number;
  pid: number;
};

let statuses: Record<string, number> = {};
/** One GET of `path`; resolves to how long its answer took, ms. */
function get(agent: Agent | false): Promise<number> {
  const sent = performance.now();
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers, agent }, (response) => {
      const status = String(response.statusCode);
      statuses[status] = (statuses[status] ?? 0) + 1;
      response.resume().once('end', () => {
        resolve(performance.now() - sent);
      });
    })
      .once('error', reject)
      .end();
  });
}

/** Sends a request every `everyMs` until the end of the run; the times of their answers. */
async function every(everyMs: number, agent: Agent | false): Promise<number[]> {
  const answers: Promise<number>[] = [];
  for (const end = performance.now() + seconds * 1000; performance.now() < end;) {
    answers.push(get(agent));
    await sleep(everyMs);
  }
  return Promise.all(answers);
}

/** One run of both readers, with the service's peak memory meanwhile. */
async function read(): Promise<ReadersReport> {
  statuses = {};
  let peakRss = rssOf(pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(pid))), 20);
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const [keepAlive, newConnection] = await Promise.all([every(2, agent), every(20, false)]);
  clearInterval(sampler);
  agent.destroy();
  return {
    keepAlive: latencies(keepAlive),
    newConnection: latencies(newConnection),
    statuses,
    peakRss,
  };
}

// A run each time the bench says so; the process ends when the bench lets go of it.
process.on('message', () => {
  void read().then((report) => process.send?.(report));
});
process.send?.('ready');
