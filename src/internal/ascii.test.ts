import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { startsWithFolded } from './ascii.js';

describe('startsWithFolded', () => {
  it('matches ASCII letters in any case, and other characters exactly', () => {
    assert.equal(startsWithFolded('Authorization', 'authorization'), true);
    assert.equal(startsWithFolded('BEARER abc', 'bearer'), true);
    assert.equal(startsWithFolded('X-API-Key', 'x-api-key'), true);
    assert.equal(startsWithFolded('x_api-key', 'x-api-key'), false);
  });

  it('is false when the value is shorter', () => {
    assert.equal(startsWithFolded('Bear', 'bearer'), false);
    assert.equal(startsWithFolded('', 'a'), false);
    assert.equal(startsWithFolded('anything', ''), true);
  });

  it('does not fold non-ASCII letters, nor other ASCII characters onto letters', () => {
    assert.equal(startsWithFolded('\u212Aey', 'key'), false); // KELVIN SIGN lower-cases to "k"
    assert.equal(startsWithFolded('bas\u0130c', 'basic'), false);
    assert.equal(startsWithFolded('@', '`'), false); // 0x40 | 0x20 is 0x60
    assert.equal(startsWithFolded('\r', '-'), false); // 0x0d | 0x20 is 0x2d
  });

  it('agrees with toLowerCase() on printable ASCII', () => {
    const ascii = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    });
    fc.assert(
      fc.property(ascii, ascii, (value, prefix) => {
        const lower = prefix.toLowerCase();
        assert.equal(startsWithFolded(value, lower), value.toLowerCase().startsWith(lower));
      }),
    );
  });
});
