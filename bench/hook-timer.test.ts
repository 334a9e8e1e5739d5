import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BENCH_BODY, benchHeaders, buildBenchApp } from './app.js';
import { summariseHooks, type HookRound } from './hook-timer.js';

describe('timeHooks', () => {
  it('times the hook of each route until it lets the request through, then starts afresh', async (t) => {
    const { app, hooks } = await buildBenchApp({ timeHooks: true });
    t.after(() => app.close());
    assert.ok(hooks !== undefined);
    for (let i = 0; i < 3; i++) {
      const ok = await app.inject({ method: 'GET', url: '/bearer', headers: benchHeaders });
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(ok.json(), BENCH_BODY);
    }
    const refused = await app.inject({ method: 'GET', url: '/bearer' });
    assert.equal(refused.statusCode, 401, 'the timed hook still refuses');
    await app.inject({ method: 'GET', url: '/hooked' });

    const taken = hooks.take();
    // Routes without a route-level hook (/noauth, and /plugin, whose @fastify/bearer-auth hook is
    // its context's) are not timed.
    assert.deepEqual(Object.keys(taken).sort(), [
      '/apikey',
      '/bearer',
      '/hooked',
      '/inhook',
      '/listof',
      '/manual',
    ]);
    assert.equal(taken['/bearer']!.requests, 3, 'the 401 never reached done()');
    assert.ok(taken['/bearer']!.nanoseconds > 0);
    assert.equal(taken['/hooked']!.requests, 1);
    assert.deepEqual(taken['/apikey'], { requests: 0, nanoseconds: 0 });
    assert.deepEqual(hooks.take()['/bearer'], { requests: 0, nanoseconds: 0 });
  });

  it('is off unless asked for', async (t) => {
    const { app, hooks } = await buildBenchApp();
    t.after(() => app.close());
    assert.equal(hooks, undefined);
  });
});

describe('summariseHooks', () => {
  const round = (server: number, floor: number, bearer: number): HookRound => ({
    serverNanosPerRequest: server,
    times: {
      '/hooked': { requests: 10, nanoseconds: floor * 10 },
      '/bearer': { requests: 5, nanoseconds: bearer * 5 },
    },
  });

  it('compares each hook with the empty one within each round, then takes the median', () => {
    // The machine runs at half speed in the second round: every hook takes twice as long, and
    // the difference within the round is what counts.
    const rounds = [
      round(30_000, 200, 1_200),
      round(60_000, 400, 2_400),
      round(30_000, 200, 1_100),
    ];
    const [floor, bearer] = summariseHooks(rounds, '/hooked');
    assert.equal(floor!.path, '/hooked');
    assert.equal(floor!.beyondFloor, 0);
    assert.equal(bearer!.path, '/bearer');
    assert.equal(bearer!.nanoseconds, 1_200);
    assert.equal(bearer!.beyondFloor, 1_000);
    assert.deepEqual(bearer!.beyondFloorInterval, [900, 2_000]);
    assert.equal(bearer!.shareOfRequest, 1_000 / 30_000);
  });

  it('refuses rounds without the empty hook or with a route that saw no request', () => {
    assert.throws(
      () =>
        summariseHooks(
          [{ serverNanosPerRequest: 1, times: { '/bearer': { requests: 1, nanoseconds: 1 } } }],
          '/hooked',
        ),
      /no hook timed on \/hooked$/,
    );
    const idle = round(30_000, 200, 0);
    const rounds = [
      { ...idle, times: { ...idle.times, '/bearer': { requests: 0, nanoseconds: 0 } } },
    ];
    assert.throws(() => summariseHooks(rounds, '/hooked'), /\/bearer: a round timed no request/);
  });
});
