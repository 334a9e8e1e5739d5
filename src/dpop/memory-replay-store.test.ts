import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError, StoreUnavailableError } from '../core/errors.js';
import { memoryReplayStore } from './memory-replay-store.js';

describe('memoryReplayStore', () => {
  it('accepts a key once until it expires, then again', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const store = memoryReplayStore();
    assert.equal(store.claim('a', 1_060_000), true);
    assert.equal(store.claim('a', 1_060_000), false, 'a replay');
    assert.equal(store.claim('b', 1_060_000), true, 'another key');
    t.mock.timers.tick(60_000);
    assert.equal(store.claim('a', 1_120_000), true, 'expired: the window is past');
    assert.equal(store.claim('a', 1_120_000), false);
  });

  it('never forgets a live proof to make room: 503 until the oldest expire', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 0 });
    const store = memoryReplayStore({ maxEntries: 2 });
    assert.equal(store.claim('a', 10), true);
    assert.equal(store.claim('b', 20), true);
    assert.throws(() => store.claim('c', 30), StoreUnavailableError);
    assert.equal(store.claim('a', 10), false, 'still remembered');
    t.mock.timers.tick(10);
    assert.equal(store.claim('c', 30), true, 'a expired and made room');
    assert.equal(store.claim('b', 20), false);
  });

  it('refuses a size that is not a whole number above 0', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => memoryReplayStore({ maxEntries }), ConfigurationError);
    }
  });
});
