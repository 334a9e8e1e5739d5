import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlood, parseWrk, wrkArgs } from './wrk.js';

// wrk 4.1.0's report of `wrk -t1 -c50 -d2s --latency …`.
const report = `Running 2s test @ http://127.0.0.1:41234/api/bearer
  1 threads and 50 connections
  Latency Distribution
     50%    1.79ms
     99%  950.00us
  54342 requests in 2.00s, 13.21MB read
Requests/sec:  27171.00
`;
const flood = `Running 10s test @ http://127.0.0.1:41234/api/token
  1 threads and 300 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   120.50ms  210.11ms   1.36s    90.00%
  2727 requests in 10.00s, 0.61MB read
  Socket errors: connect 0, read 0, write 0, timeout 3
  Non-2xx or 3xx responses: 2727
status 400 17
status 503 2710
`;

describe('wrk', () => {
  it('is told one thread, the connections, the seconds, every header and the URL', () => {
    const shot = { label: 'x', path: '/x', headers: { a: '1', 'x-b': 'two words' } };
    assert.deepEqual(wrkArgs(8000, shot, 2, 50), [
      ...['-t1', '-c50', '-d2s', '--latency', '-H', 'a: 1', '-H', 'x-b: two words'],
      'http://127.0.0.1:8000/x',
    ]);
  });

  it('reads the requests and the p99 in ms, and refuses what it cannot read', () => {
    const { requests, latencyP99 } = parseWrk(report, '/api/bearer');
    assert.equal(requests, 54342);
    assert.ok(Math.abs(latencyP99 - 0.95) < 1e-9, String(latencyP99));
    assert.throws(() => parseWrk(report.replace(/ +99%.*\n/, ''), '/x'), /no requests or p99/);
  });

  it('refuses a run with a non-2xx answer or a failed socket, naming the route', () => {
    for (const failure of [
      'Non-2xx or 3xx responses: 12',
      'Socket errors: connect 0, read 3, write 0, timeout 0',
    ]) {
      const output = report.replace('Requests/sec', `${failure}\nRequests/sec`);
      assert.throws(() => parseWrk(output, '/api/bearer'), /\/api\/bearer: not every response/);
    }
  });

  it("reads a flood's statuses, slowest answer and answers past the timeout", () => {
    assert.deepEqual(parseFlood(flood), {
      statuses: { '400': 17, '503': 2710 },
      slowestMs: 1360,
      timeouts: 3,
    });
    assert.throws(() => parseFlood(flood.replace(/^status .*$/gm, '')), /no latency or statuses/);
    assert.throws(() => parseFlood(flood.replace('connect 0', 'connect 2')), /sockets failed/);
  });
});
