import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fromBase64, toBase64, toBase64url } from './base64.js';

const STRICT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

describe('base64', () => {
  it('encodes the RFC 4648 test vectors', () => {
    const vectors = ['', 'Zg==', 'Zm8=', 'Zm9v', 'Zm9vYg==', 'Zm9vYmE=', 'Zm9vYmFy'];
    vectors.forEach((expected, length) => {
      const bytes = new TextEncoder().encode('foobar'.slice(0, length));
      assert.equal(toBase64(bytes), expected);
      assert.deepEqual(fromBase64(expected), bytes);
    });
  });

  it('agrees with Node on any bytes, in both alphabets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const buffer = Buffer.from(bytes);
        assert.equal(toBase64(bytes), buffer.toString('base64'));
        assert.equal(toBase64url(bytes), buffer.toString('base64url'));
        assert.deepEqual(fromBase64(buffer.toString('base64')), bytes);
      }),
    );
  });

  it('refuses a spelling whose padding bits are not zero', () => {
    assert.equal(fromBase64('Zh=='), undefined);
    assert.equal(fromBase64('Zm9='), undefined);
    assert.deepEqual(fromBase64('Zg=='), new Uint8Array([0x66]));
  });

  it('decodes a strict spelling only if it is the canonical one', () => {
    const alphabet = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split(''),
    );
    const text = fc
      .tuple(fc.array(alphabet, { maxLength: 12 }), fc.constantFrom('', '==', '='))
      .map(([chars, padding]) => {
        const body = chars.join('');
        const size = (4 - ((body.length + padding.length) % 4)) % 4;
        return body + 'A'.repeat(size) + padding;
      })
      .filter((value) => STRICT.test(value));
    fc.assert(
      fc.property(text, (value) => {
        const decoded = fromBase64(value);
        const canonical = Buffer.from(value, 'base64').toString('base64') === value;
        assert.equal(decoded !== undefined, canonical);
        if (decoded !== undefined)
          assert.deepEqual(decoded, new Uint8Array(Buffer.from(value, 'base64')));
      }),
    );
  });
});
