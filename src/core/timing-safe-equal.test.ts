import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timingSafeEqual } from './timing-safe-equal.js';

describe('timingSafeEqual', () => {
  it('is true for equal secrets', () => {
    assert.equal(timingSafeEqual('s3cret', 's3cret'), true);
    assert.equal(timingSafeEqual('', ''), true);
    assert.equal(timingSafeEqual('clé', 'clé'), true);
  });

  it('is false for different secrets, including prefixes and other lengths', () => {
    assert.equal(timingSafeEqual('s3cret', 's3creT'), false);
    assert.equal(timingSafeEqual('s3cret', 's3cre'), false);
    assert.equal(timingSafeEqual('s3cret', 's3cret '), false);
    assert.equal(timingSafeEqual('', 'x'), false);
    assert.equal(timingSafeEqual('a'.repeat(1000), 'a'.repeat(1001)), false);
  });

  it('compares bytes: a string equals its UTF-8 bytes', () => {
    assert.equal(timingSafeEqual('clé', Buffer.from('clé', 'utf8')), true);
    assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])), true);
    assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])), false);
  });

  it('does not fold Unicode: composed and decomposed forms differ', () => {
    assert.equal(timingSafeEqual('\u00e9', 'e\u0301'), false);
  });
});
