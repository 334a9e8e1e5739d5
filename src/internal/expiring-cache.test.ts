import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExpiringCache } from './expiring-cache.js';

describe('ExpiringCache', () => {
  it('gives a value until its own expiry, then forgets it', () => {
    const cache = new ExpiringCache<string>(10);
    cache.set('short', 'a', 1000, 0);
    cache.set('long', 'b', 5000, 0);
    assert.equal(cache.get('short', 999), 'a');
    assert.equal(cache.get('short', 1000), undefined, 'expired at its expiry, not after');
    assert.equal(cache.get('long', 1000), 'b');
    assert.equal(cache.size, 1, 'the expired entry read is gone');
  });

  it('keeps nothing already expired, and drops what that key held', () => {
    const cache = new ExpiringCache<string>(10);
    cache.set('key', 'old', 5000, 0);
    cache.set('key', 'new', 100, 100);
    assert.equal(cache.get('key', 100), undefined);
    assert.equal(cache.size, 0);
  });

  it('past maxEntries, evicts the least recently used', () => {
    const cache = new ExpiringCache<number>(2);
    cache.set('a', 1, 1000, 0);
    cache.set('b', 2, 1000, 0);
    assert.equal(cache.get('a', 1), 1, 'a is now the most recently used');
    cache.set('c', 3, 1000, 1);
    assert.equal(cache.get('b', 2), undefined, 'b went');
    assert.equal(cache.get('a', 2), 1);
    assert.equal(cache.get('c', 2), 3);
    assert.equal(cache.size, 2);
  });

  it('with maxEntries 0 keeps nothing', () => {
    const cache = new ExpiringCache<number>(0);
    cache.set('a', 1, 1000, 0);
    assert.equal(cache.get('a', 1), undefined);
    assert.equal(cache.size, 0);
  });
});
