import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { startServer } from './server-process.js';
import { benchHeaders } from './app.js';
import { fireWrk, parseFlood, parseWrk, wrkArgs } from './wrk.js';
import { repo } from './machine.js';

// wrk 4.1.0's report of `wrk -t1 -c50 -d2s --latency …`.
const report = `Running 2s test @ http://127.0.0.1:41234/api/bearer
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.84ms  312.45us   9.87ms   91.20%
    Req/Sec    27.31k     1.02k   28.90k    70.00%
  Latency Distribution
     50%    1.79ms
     75%    1.90ms
     90%    2.07ms
     99%  950.00us
  54342 requests in 2.00s, 13.21MB read
Requests/sec:  27171.00
Transfer/sec:      6.61MB
`;

const hasWrk = (() => {
  try {
    execFileSync('wrk', ['-v'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk -v prints its version and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();

describe("a flood's wrk report", () => {
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

  it('reads the statuses, the slowest answer and the answers past the timeout', () => {
    assert.deepEqual(parseFlood(flood), {
      statuses: { '400': 17, '503': 2710 },
      slowestMs: 1360,
      timeouts: 3,
    });
  });

  it('refuses a report without statuses or latency, or with a failed socket', () => {
    assert.throws(() => parseFlood(flood.replace(/^status .*$/gm, '')), /no latency or statuses/);
    assert.throws(() => parseFlood(flood.replace(/Latency .*/, '')), /no latency or statuses/);
    assert.throws(() => parseFlood(flood.replace('connect 0', 'connect 2')), /sockets failed/);
  });
});

describe('wrk', () => {
  it('is told one thread, the connections, the seconds, every header and the URL', () => {
    assert.deepEqual(
      wrkArgs(8000, { path: '/x', headers: { a: '1', 'x-b': 'two words' } }, 2, 50),
      [
        '-t1',
        '-c50',
        '-d2s',
        '--latency',
        '-H',
        'a: 1',
        '-H',
        'x-b: two words',
        'http://127.0.0.1:8000/x',
      ],
    );
  });

  it("reads the requests, the seconds and the latencies (in ms) of wrk's report", () => {
    const fired = parseWrk(report, '/api/bearer');
    assert.equal(fired.requests, 54342);
    assert.equal(fired.seconds, 2);
    assert.ok(Math.abs(fired.latencyP50 - 1.79) < 1e-9, String(fired.latencyP50));
    assert.ok(Math.abs(fired.latencyP99 - 0.95) < 1e-9, String(fired.latencyP99));
  });

  it('refuses a run with a non-2xx response or a socket error, naming the route', () => {
    for (const failure of [
      'Non-2xx or 3xx responses: 12\n',
      'Socket errors: connect 0, read 3, write 0, timeout 0\n',
      'Socket errors: connect 0, read 0, write 0, timeout 1\n',
    ]) {
      assert.throws(
        () => parseWrk(report.replace('Requests/sec', `${failure}Requests/sec`), '/api/bearer'),
        /\/api\/bearer: not every response was a 2xx/,
      );
    }
    assert.doesNotThrow(() =>
      parseWrk(
        report.replace(
          'Requests/sec',
          'Socket errors: connect 0, read 0, write 0, timeout 0\nRequests/sec',
        ),
        '/x',
      ),
    );
  });

  it('refuses a report it cannot read', () => {
    assert.throws(
      () => parseWrk('unable to connect to 127.0.0.1:1 Connection refused', '/x'),
      /no request count/,
    );
    assert.throws(
      () => parseWrk(report.replace('     99%  950.00us\n', ''), '/x'),
      /no 99% latency/,
    );
  });

  it(
    'times the benchmark server for real, every answer a 200',
    { skip: hasWrk ? false : 'wrk is not installed (apt-get install wrk)' },
    async () => {
      const server = await startServer(repo, []);
      try {
        const fired = await fireWrk(server.port, { path: '/bearer', headers: benchHeaders }, 1, 4);
        assert.ok(fired.requests > 100, `${fired.requests} requests`);
        assert.ok(fired.seconds >= 0.9 && fired.seconds <= 1.5, `${fired.seconds} s`);
        assert.ok(fired.latencyP50 > 0 && fired.latencyP50 <= fired.latencyP99);
        await assert.rejects(
          fireWrk(server.port, { path: '/bearer', headers: {} }, 1, 4),
          /not every response was a 2xx/,
        );
      } finally {
        await server.close();
      }
    },
  );
});
