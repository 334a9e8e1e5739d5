import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { utf8 } from './utf8.js';

describe('utf8', () => {
  it('encodes ASCII and everything else as TextEncoder does, lone surrogates included', () => {
    assert.deepEqual(utf8('abc'), new Uint8Array([0x61, 0x62, 0x63]));
    assert.deepEqual(utf8('é\ud800'), new Uint8Array([0xc3, 0xa9, 0xef, 0xbf, 0xbd]));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        assert.deepEqual(utf8(text), new TextEncoder().encode(text));
      }),
    );
  });
});
