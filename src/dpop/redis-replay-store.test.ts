import { Redis } from 'ioredis';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { ConfigurationError, StoreUnavailableError } from '../core/errors.js';
import { randomKey } from '../../test/helpers/replay-store-engines.js';
import { redisNamespace } from '../../test/helpers/services.js';
import { redisReplayStore } from './redis-replay-store.js';

const MINUTE = 60_000;

/** An ioredis client, disconnected when the test ends (after the hooks registered before). */
function client(t: TestContext, url: string, options: { keyPrefix?: string } = {}): Redis {
  const redis = new Redis(url, { ...options, maxRetriesPerRequest: 0 });
  t.after(() => {
    redis.disconnect();
  });
  return redis;
}

describe('redisReplayStore', () => {
  it('keeps a key under its prefix (vouch:dpop: by default) for the rest of the window', async (t) => {
    const namespace = await redisNamespace(t);
    if (namespace === undefined) return;
    const key = randomKey();
    // The default prefix is outside the test's namespace: delete the one key made there.
    t.after(() => redis.del(`vouch:dpop:${key}`));
    const redis = client(t, namespace.url);
    assert.equal(await redisReplayStore(redis).claim(key, Date.now() + MINUTE), true);
    const ttl = await redis.pttl(`vouch:dpop:${key}`);
    assert.ok(ttl > MINUTE - 5000 && ttl <= MINUTE, `PTTL ${ttl}`);

    const mine = redisReplayStore(redis, { prefix: namespace.keyPrefix });
    assert.equal(await mine.claim(key, Date.now() + 1000), true, 'another prefix, another key');
    const short = await redis.pttl(`${namespace.keyPrefix}${key}`);
    assert.ok(short > 0 && short <= 1000, `PTTL ${short}`);

    const prefixed = client(t, namespace.url, { keyPrefix: namespace.keyPrefix });
    assert.equal(
      await redisReplayStore(prefixed, { prefix: 'dpop:' }).claim(key, Date.now() + MINUTE),
      true,
    );
    assert.equal(
      await redis.get(`${namespace.keyPrefix}dpop:${key}`),
      '1',
      "after the client's keyPrefix",
    );
  });

  it('a Redis that accepts the connection but never answers is StoreUnavailableError within timeoutMs', async (t) => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    // ioredis's defaults: commands queue while it waits for the server to be ready.
    const redis = new Redis((silent.address() as AddressInfo).port, '127.0.0.1');
    t.after(() => {
      redis.disconnect();
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    const store = redisReplayStore(redis, { timeoutMs: 100 });
    const started = Date.now();
    await assert.rejects(
      async () => store.claim(randomKey(), Date.now() + MINUTE),
      (error) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.match(String(error.cause), /no answer within 100 ms/);
        return true;
      },
    );
    const waited = Date.now() - started;
    assert.ok(waited >= 100 && waited < 1000, `waited ${waited} ms`);
  });

  it('refuses a timeout that is not a whole number above 0', () => {
    const redis = new Redis({ lazyConnect: true });
    for (const timeoutMs of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => redisReplayStore(redis, { timeoutMs }), ConfigurationError);
    }
  });
});
