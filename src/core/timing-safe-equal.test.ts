import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
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
    assert.equal(timingSafeEqual('x', ''), false);
    assert.equal(timingSafeEqual('a'.repeat(1000), 'a'.repeat(1001)), false);
  });

  it('is false when only the lengths differ by a multiple of 65536', () => {
    // Lengths are folded into the accumulator whole, not truncated to a code unit.
    assert.equal(timingSafeEqual('a'.repeat(65536 + 1), 'a'), false);
  });

  it('compares bytes: a string equals its UTF-8 bytes', () => {
    assert.equal(timingSafeEqual('clé', Buffer.from('clé', 'utf8')), true);
    assert.equal(timingSafeEqual(Buffer.from('clé', 'utf8'), 'clé'), true);
    assert.equal(timingSafeEqual('cle', Buffer.from('clé', 'utf8')), false);
    assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])), true);
    assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])), false);
    assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2])), false);
  });

  it('does not fold Unicode: composed and decomposed forms differ', () => {
    assert.equal(timingSafeEqual('\u00e9', 'e\u0301'), false);
  });

  it('tells different lone surrogates apart (UTF-8 encoding would make both U+FFFD)', () => {
    assert.equal(timingSafeEqual('\ud800', '\udc00'), false);
    assert.equal(timingSafeEqual('a\ud800b', 'a\ud800b'), true);
  });

  it('agrees with === on any two strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        assert.equal(timingSafeEqual(a, b), a === b);
        assert.equal(timingSafeEqual(a, a), true);
      }),
    );
  });

  it('agrees with byte equality of the UTF-8 encoding for a string and bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.uint8Array(), (a, bytes) => {
        const encoded = Buffer.from(a, 'utf8');
        assert.equal(timingSafeEqual(a, encoded), true);
        assert.equal(timingSafeEqual(a, bytes), encoded.equals(bytes));
      }),
    );
  });
});
