// Proves that bench:flood floods and reads what it claims before anything is timed: the service
// started as the bench starts it answers the readers' route 200 with the token it issued and 401
// without it, a sign-in of the flood is refused as a wrong password (not as a malformed request),
// each is another user from another address; and the arithmetic of the figures it prints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFloodSignIn, floodSignIn, latencies } from './flood-clients.js';
import { verify } from './load.js';
import { launch } from './service-process.js';

describe('sign-in flood bench', () => {
  it('the readers are answered 200, a sign-in of the flood 400 as a wrong password', async (t) => {
    const { service, shots, stop } = await launch('sqlite', {
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'info',
    });
    t.after(stop);
    const bearer = shots.find((shot) => shot.path === '/api/bearer');
    assert.ok(bearer !== undefined);
    await verify(service.port, bearer);
    await checkFloodSignIn(service.port);
  });

  it('each sign-in of the flood is another username from another address', () => {
    const many = Array.from({ length: 70_000 }, (_, i) => floodSignIn(i + 1));
    const addresses = new Set(many.map((one) => one.headers['x-forwarded-for']));
    const bodies = new Set(many.map((one) => one.body));
    assert.equal(addresses.size, many.length);
    assert.equal(bodies.size, many.length);
    assert.deepEqual(floodSignIn(65_793), {
      method: 'POST',
      path: '/api/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '10.1.1.1',
      },
      body: 'username=flood-65793&password=guess',
    });
  });

  it('latencies: the count, the 99th percentile by nearest rank, the slowest', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.deepEqual(latencies(hundred), { count: 100, p99: 99, max: 100 });
    assert.deepEqual(latencies([3, 1, 2]), { count: 3, p99: 3, max: 3 });
    assert.deepEqual(latencies([]), { count: 0, p99: 0, max: 0 });
  });
});
