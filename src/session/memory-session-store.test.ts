import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemorySessionStore } from './memory-session-store.js';

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('MemorySessionStore', () => {
  it('creates a session and resolves its id to the user', async () => {
    const store = new MemorySessionStore<{ name: string }>();
    const id = await store.create({ name: 'ann' });
    assert.deepEqual(await store.get(id), { name: 'ann' });
    assert.equal(store.size, 1);
  });

  it('issues ids of at least 128 random bits, new on every create', async () => {
    const store = new MemorySessionStore<string>();
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add(await store.create('ann'));
    assert.equal(ids.size, 50);
    for (const id of ids) {
      assert.match(id, /^[A-Za-z0-9_-]+$/);
      assert.ok(Buffer.from(id, 'base64url').length * 8 >= 128);
    }
  });

  it('does not keep the id itself, only a digest', async () => {
    const store = new MemorySessionStore<string>();
    const id = await store.create('ann');
    // A truncated or altered id never resolves.
    assert.equal(await store.get(id.slice(0, -1)), undefined);
    assert.equal(await store.get(`${id}x`), undefined);
    assert.equal(await store.get(''), undefined);
  });

  it('returns undefined for an unknown id', async () => {
    assert.equal(await new MemorySessionStore<string>().get('nope'), undefined);
  });

  it('destroys a session at once, and never resurrects it', async () => {
    const store = new MemorySessionStore<string>();
    const id = await store.create('ann');
    const racing = store.get(id);
    await store.destroy(id);
    assert.equal(await racing, 'ann');
    assert.equal(await store.get(id), undefined);
    assert.equal(store.size, 0);
    await store.destroy(id);
    assert.equal(await store.get(id), undefined);
  });

  it('enforces the idle timeout, and use keeps a session alive', async () => {
    const time = clock();
    const store = new MemorySessionStore<string>({ idleTimeoutMs: 1000, now: time.now });
    const id = await store.create('ann');
    time.advance(999);
    assert.equal(await store.get(id), 'ann');
    time.advance(999);
    assert.equal(await store.get(id), 'ann');
    time.advance(1000);
    assert.equal(await store.get(id), undefined);
    assert.equal(store.size, 0, 'an expired session is swept when seen');
  });

  it('enforces the absolute timeout however busy the session is', async () => {
    const time = clock();
    const store = new MemorySessionStore<string>({
      idleTimeoutMs: 1000,
      absoluteTimeoutMs: 2500,
      now: time.now,
    });
    const id = await store.create('ann');
    time.advance(900);
    assert.equal(await store.get(id), 'ann');
    time.advance(900);
    assert.equal(await store.get(id), 'ann');
    time.advance(699);
    assert.equal(await store.get(id), 'ann');
    time.advance(1);
    assert.equal(await store.get(id), undefined);
  });

  it('defaults to 30 minutes idle and 12 hours absolute', async () => {
    const time = clock();
    const store = new MemorySessionStore<string>({ now: time.now });
    const idle = await store.create('idle');
    time.advance(30 * 60_000 - 1);
    assert.equal(await store.get(idle), 'idle');
    time.advance(30 * 60_000);
    assert.equal(await store.get(idle), undefined);

    const busy = await store.create('busy');
    for (let i = 0; i < 24; i++) {
      time.advance(29 * 60_000);
      assert.equal(await store.get(busy), 'busy');
    }
    time.advance(12 * 60 * 60_000 - 24 * 29 * 60_000);
    assert.equal(await store.get(busy), undefined);
  });

  it('uses the real clock by default', async () => {
    const store = new MemorySessionStore<string>();
    const id = await store.create('ann');
    assert.equal(await store.get(id), 'ann');
  });
});
