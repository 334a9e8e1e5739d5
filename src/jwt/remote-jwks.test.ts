// JwtBearer against a real JWKS server on a loopback port: caching, refetching on an unknown
// `kid` at most once per cooldown, and the 503 for a key set that cannot be had.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { StoreUnavailableError } from '../core/errors.js';
import type { Outcome } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import {
  AUDIENCE,
  epoch,
  ISSUER,
  jwksServer,
  sign,
  testKey,
  type JwksMode,
  type TestKey,
} from '../../test/helpers/jwt.js';
import { JwtBearer } from './index.js';

function verify(bearer: JwtBearer, token: string): Promise<Outcome<unknown>> {
  const header = `Bearer ${token}`;
  const request: RequestView = {
    method: 'GET',
    url: '/x',
    headers: { authorization: header },
    raw: { rawHeaders: ['Authorization', header] },
  };
  return Promise.resolve(bearer.verify(request));
}

const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];

function bearerFor(url: string, options: { jwksTimeout?: number } = {}): JwtBearer {
  return new JwtBearer({
    jwksUrl: url,
    issuer: ISSUER,
    audience: AUDIENCE,
    algorithms: ALGORITHMS,
    ...options,
  });
}

const unavailable = { name: 'StoreUnavailableError', code: 'VOUCH_ERR_STORE_UNAVAILABLE' };

describe('JwtBearer with a JWKS URL', () => {
  const keys: Record<string, TestKey> = {};
  before(async () => {
    for (const alg of ALGORITHMS) keys[alg] = await testKey(alg);
  });
  const key = (alg: string) => keys[alg] as TestKey;
  const published = () => ALGORITHMS.map((alg) => key(alg).jwk);

  it('verifies RS256, ES256 and EdDSA tokens with keys fetched once and cached', async (t) => {
    const server = await jwksServer(t, published());
    const bearer = bearerFor(server.url);
    assert.equal(server.hits, 0, 'nothing is fetched before a token needs it');
    for (const alg of ALGORITHMS) {
      const outcome = await verify(bearer, await sign(key(alg)));
      assert.equal(outcome.state, 'accepted', alg);
      assert.equal((outcome as { value: { sub: string } }).value.sub, 'user-1');
    }
    assert.equal(server.hits, 1);
  });

  it('refuses a bad token while the JWKS answers: 401, never 503', async (t) => {
    const server = await jwksServer(t, published());
    const bearer = bearerFor(server.url);
    const impostor = await testKey('ES256', key('ES256').kid);
    assert.deepEqual(await verify(bearer, await sign(impostor)), { state: 'rejected' });
    const expired = await sign(key('RS256'), { claims: { exp: epoch(-60) } });
    assert.deepEqual(await verify(bearer, expired), { state: 'rejected' });
    assert.equal(server.hits, 1);
  });

  it('fetches again for an unknown kid, at most once a minute (key rotation)', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const old = key('ES256');
    const next = await testKey('ES256', 'ES256-2');
    const server = await jwksServer(t, [old.jwk]);
    const bearer = bearerFor(server.url);
    assert.equal((await verify(bearer, await sign(old))).state, 'accepted');
    assert.equal(server.hits, 1);

    // The issuer rotates to a new key; a token signed with it arrives at once.
    server.keys = [next.jwk];
    assert.deepEqual(await verify(bearer, await sign(next)), { state: 'rejected' });
    t.mock.timers.tick(59_000);
    assert.deepEqual(await verify(bearer, await sign(next)), { state: 'rejected' });
    assert.equal(server.hits, 1, 'not fetched again within the minute');

    t.mock.timers.tick(1_001);
    assert.equal((await verify(bearer, await sign(next))).state, 'accepted');
    assert.equal(server.hits, 2, 'fetched again once the minute is over');
    assert.deepEqual(await verify(bearer, await sign(old)), { state: 'rejected' });

    // A flood of made-up kids costs no more fetches.
    const flood = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        verify(bearer, await sign(next, { kid: `x${i}` })),
      ),
    );
    assert.ok(flood.every((outcome) => outcome.state === 'rejected'));
    assert.equal(server.hits, 2);
  });

  describe('a JWKS that cannot be had is a StoreUnavailableError (503)', () => {
    const modes: readonly JwksMode[] = ['status-500', 'garbage', 'not-a-key-set'];
    for (const mode of modes) {
      it(`when it answers ${mode}`, async (t) => {
        const server = await jwksServer(t, published());
        server.mode = mode;
        const token = await sign(key('RS256'));
        await assert.rejects(verify(bearerFor(server.url), token), (error: Error) => {
          assert.ok(error instanceof StoreUnavailableError);
          assert.equal(error.code, 'VOUCH_ERR_STORE_UNAVAILABLE');
          assert.ok(!error.message.includes(token), 'the token is never in the error');
          return true;
        });
      });
    }

    it('when it is down (connection refused)', async (t) => {
      const server = await jwksServer(t, published());
      await server.close();
      await assert.rejects(verify(bearerFor(server.url), await sign(key('RS256'))), unavailable);
    });

    it('when it does not answer within jwksTimeout', async (t) => {
      const server = await jwksServer(t, published());
      server.mode = 'hang';
      const started = Date.now();
      const bearer = bearerFor(server.url, { jwksTimeout: 200 });
      await assert.rejects(verify(bearer, await sign(key('RS256'))), (error: Error) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.equal(error.code, 'VOUCH_ERR_STORE_UNAVAILABLE');
        assert.equal((error.cause as Error).name, 'JWKSTimeout');
        return true;
      });
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 190 && elapsed < 2000, `gave up after ${elapsed} ms`);
      assert.equal(server.hits, 1);
    });

    it('only when a key is needed: known keys stay cached, bad tokens are still 401', async (t) => {
      t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
      const server = await jwksServer(t, published());
      const bearer = bearerFor(server.url);
      assert.equal((await verify(bearer, await sign(key('EdDSA')))).state, 'accepted');
      await server.close();
      t.mock.timers.tick(61_000);
      // Cached keys still verify; malformed tokens and refused algorithms fetch nothing.
      assert.equal((await verify(bearer, await sign(key('RS256')))).state, 'accepted');
      assert.deepEqual(await verify(bearer, 'not.a.jwt'), { state: 'rejected' });
      const ps256 = await testKey('PS256');
      assert.deepEqual(await verify(bearer, await sign(ps256)), { state: 'rejected' });
      // A kid it has not seen needs the set, which is down.
      const stranger = await sign(key('RS256'), { kid: 'new-key' });
      await assert.rejects(verify(bearer, stranger), unavailable);
    });
  });
});
