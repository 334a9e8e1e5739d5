// Proves that the benchmarked app answers correctly, so nothing broken is ever timed: every
// route answers 200 and the same body with the benchmark's headers, and every authenticated
// route refuses a request without its credential or with a wrong one.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import {
  BENCH_API_KEY,
  BENCH_BODY,
  benchHeaders,
  benchRoutes,
  buildBenchApp,
  selectRoutes,
} from './app.js';

async function build(t: TestContext): Promise<FastifyInstance> {
  const { app } = await buildBenchApp();
  t.after(() => app.close());
  return app;
}

function without(header: string): Record<string, string> {
  return Object.fromEntries(Object.entries(benchHeaders).filter(([name]) => name !== header));
}

describe('bench app', () => {
  it('has the baseline first and at least one route of each kind', () => {
    assert.equal(benchRoutes[0]?.kind, 'baseline');
    assert.equal(benchRoutes.filter((route) => route.kind === 'baseline').length, 1);
    assert.ok(benchRoutes.some((route) => route.kind === 'single'));
    assert.ok(benchRoutes.some((route) => route.kind === 'list'));
    assert.ok(benchRoutes.some((route) => route.kind === 'control'));
  });

  it('gives every route a path the router finds at the same cost', () => {
    for (const route of benchRoutes) assert.equal(route.path.length, 7, route.path);
    const firstLetters = new Set(benchRoutes.map((route) => route.path[1]));
    assert.equal(firstLetters.size, benchRoutes.length);
  });

  it('selects the named routes in table order, the baseline always first', () => {
    assert.deepEqual(selectRoutes(undefined), benchRoutes);
    assert.deepEqual(
      selectRoutes('/apikey,/bearer').map((route) => route.path),
      ['/noauth', '/bearer', '/apikey'],
    );
    assert.deepEqual(
      selectRoutes('/noauth').map((route) => route.path),
      ['/noauth'],
    );
    assert.throws(() => selectRoutes('/bearer,/nope'), /--routes: no route \/nope/);
  });

  for (const route of benchRoutes) {
    describe(route.path, () => {
      it('answers 200 and the shared body with the benchmark headers', async (t) => {
        const app = await build(t);
        const response = await app.inject({
          method: 'GET',
          url: route.path,
          headers: benchHeaders,
        });
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), BENCH_BODY);
      });

      const header = route.credentialHeader;
      if (header === undefined) {
        it('answers 200 without any credential', async (t) => {
          const app = await build(t);
          const response = await app.inject({ method: 'GET', url: route.path });
          assert.equal(response.statusCode, 200, response.body);
          assert.deepEqual(response.json(), BENCH_BODY);
        });
        return;
      }

      it(`answers 401 without ${header}`, async (t) => {
        const app = await build(t);
        const response = await app.inject({
          method: 'GET',
          url: route.path,
          headers: without(header),
        });
        assert.equal(response.statusCode, 401, response.body);
      });

      it(`answers 401 with a wrong ${header}`, async (t) => {
        const app = await build(t);
        const wrong = header === 'authorization' ? 'Bearer not-the-token' : 'not-the-key';
        const response = await app.inject({
          method: 'GET',
          url: route.path,
          headers: { ...benchHeaders, [header]: wrong },
        });
        assert.equal(response.statusCode, 401, response.body);
      });
    });
  }

  it('/listof tries all three: the query key and the client header also get in alone', async (t) => {
    const app = await build(t);
    const byQuery = await app.inject({ method: 'GET', url: `/listof?api_key=${BENCH_API_KEY}` });
    assert.equal(byQuery.statusCode, 200, byQuery.body);
    const byHeader = await app.inject({
      method: 'GET',
      url: '/listof',
      headers: { 'x-client-key': BENCH_API_KEY },
    });
    assert.equal(byHeader.statusCode, 200, byHeader.body);
    // The benchmark's own X-API-Key is not one of the list's credentials.
    const byApiKey = await app.inject({
      method: 'GET',
      url: '/listof',
      headers: { 'x-api-key': BENCH_API_KEY },
    });
    assert.equal(byApiKey.statusCode, 401, byApiKey.body);
    // Each of the three was consulted: one challenge per authenticator.
    assert.equal([byApiKey.headers['www-authenticate']].flat().length, 3);
  });
});
