// Proves that wrk, as the benchmarks drive it through bench/wrk.lua, sends what a run asks and
// reports what it got: the requests asked for and no more, the headers, a fresh header whose
// values are each sent once across runs, a run of whole seconds with its rate, p99 and CPU time,
// and every answer over 399 or broken connection counted, so that the run aborts. Against a small
// real server on a real socket; skipped where wrk is not on PATH.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { proofKey } from '../test/helpers/dpop-proof.js';
import { proofPool, type ProofPool } from './dpop-proofs.js';
import { fire, type Shot } from './load.js';
import { parseWrkOutput, wrkThreads, wrkVersion } from './wrk.js';

const OUTPUT = `Running 1s test @ http://127.0.0.1:8765/
  2 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.99ms    6.42ms  45.90ms   91.33%
  300 requests in 2.00s, 36.33KB read
  Non-2xx or 3xx responses: 4
vouch-wrk {"requests":300,"micros":1995581,"p99Micros":41443,"status":4,"connect":0,"read":1,"write":0,"timeout":2,"spent":300}
`;

describe('wrk output', () => {
  it("reads the figures of bench/wrk.lua's line, and refuses output without it", () => {
    assert.deepEqual(parseWrkOutput(OUTPUT), {
      requests: 300,
      micros: 1_995_581,
      p99Micros: 41_443,
      status: 4,
      connect: 0,
      read: 1,
      write: 0,
      timeout: 2,
      spent: 300,
    });
    assert.throws(() => parseWrkOutput(OUTPUT.split('vouch-wrk')[0]!), /printed no figures/);
  });
});

describe('wrk against a real server', { skip: wrkVersion() === undefined && 'no wrk' }, () => {
  type Handler = (request: IncomingMessage, response: ServerResponse) => void;
  /** What the server answers; by default 200, and it records every request's headers. */
  let answer: Handler;
  const seen: IncomingMessage['headers'][] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    answer(request, response);
  });
  let port = 0;
  let pool: ProofPool;
  const ok: Handler = (_request, response) => response.end('ok');
  const shot: Shot = {
    label: 'tiny',
    path: '/tiny',
    headers: { authorization: 'Bearer tiny', 'x-api-key': 'key' },
    body: 'ok',
  };
  const settings = { connections: 10, pipelining: 1, generator: 'wrk' } as const;

  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
    pool = proofPool(await proofKey('ES256'), { htu: 'https://api.test/tiny', token: 'tiny' });
    pool.add(1000);
  });
  after(async () => {
    pool.close();
    server.close();
    await once(server, 'close');
  });
  const reset = (handler: Handler = ok) => {
    seen.length = 0;
    answer = handler;
  };

  it('sends the requests asked for and no more, each with the headers', async () => {
    reset();
    // 301 over two threads of five connections: 151 from one, 150 from the other.
    const fired = await fire(port, shot, { requests: 301 }, settings);
    assert.deepEqual([fired.generator, fired.requests, seen.length], ['wrk', 301, 301]);
    assert.equal(fired.threads, wrkThreads(10));
    for (const headers of seen) {
      assert.deepEqual([headers.authorization, headers['x-api-key']], ['Bearer tiny', 'key']);
      assert.equal(headers.dpop, undefined);
    }
  });

  it('a fresh header: a value of the file a request, none sent twice, across runs', async () => {
    reset();
    const fresh = { ...shot, fresh: { header: 'dpop', values: pool } };
    const from = pool.taken;
    for (const requests of [150, 151]) await fire(port, fresh, { requests }, settings);
    const sent = seen.map((headers) => headers.dpop);
    assert.equal(new Set(sent).size, 301);
    assert.equal(pool.taken, from + 301);
    // Exactly the values of the file from where the pool stood, in some order.
    const lines = readFileSync(pool.file, 'latin1').split('\n');
    assert.deepEqual(sent.toSorted(), lines.slice(from, from + 301).toSorted());
  });

  it('once the values run out, a request goes without the header, and the run aborts', async () => {
    reset((request, response) => {
      response.statusCode = request.headers.dpop === undefined ? 401 : 200;
      response.end('ok');
    });
    const fresh = { ...shot, fresh: { header: 'dpop', values: pool } };
    const left = pool.left;
    await assert.rejects(
      fire(port, fresh, { requests: left + 10 }, settings),
      /not every response was a 2xx \(2xx \d+ of \d+, non-2xx (?!0)\d+/,
    );
    assert.equal(pool.left, 0);
  });

  it('times a run of whole seconds: its rate, p99 and the CPU wrk spent', async () => {
    reset();
    const fired = await fire(port, shot, { seconds: 1 }, settings);
    assert.ok(fired.requests > 100, `${fired.requests} requests`);
    // The server saw them, and those in flight when wrk stopped.
    assert.ok(seen.length >= fired.requests && seen.length <= fired.requests + 10);
    const seconds = fired.requests / fired.requestsPerSecond;
    assert.ok(seconds >= 1 && seconds < 1.5, `${seconds} s`);
    assert.ok(fired.latencyP99 > 0 && fired.latencyP99 < 1000, `p99 ${fired.latencyP99} ms`);
    assert.ok(fired.generatorMicros > 0, `wrk's CPU: ${fired.generatorMicros} µs`);
    await assert.rejects(fire(port, shot, { seconds: 1.5 }, settings), /whole seconds/);
  });

  it('counts an answer over 399 and a broken connection: the run aborts', async () => {
    let count = 0;
    reset((_request, response) => {
      response.statusCode = ++count % 50 === 0 ? 503 : 200;
      response.end('ok');
    });
    await assert.rejects(fire(port, shot, { requests: 200 }, settings), /non-2xx 4, errors 0/);
    count = 0;
    reset((request, response) => {
      if (++count % 50 === 0) request.socket.destroy();
      else response.end('ok');
    });
    await assert.rejects(fire(port, shot, { requests: 200 }, settings), /errors [1-9]/);
  });
});
