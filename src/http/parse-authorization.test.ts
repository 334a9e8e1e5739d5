import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isScheme, parseAuthorization } from './parse-authorization.js';

describe('parseAuthorization', () => {
  const cases: readonly [string, { scheme: string; credentials: string } | undefined][] = [
    ['Bearer abc', { scheme: 'Bearer', credentials: 'abc' }],
    ['bearer abc', { scheme: 'bearer', credentials: 'abc' }],
    ['Bearer    abc', { scheme: 'Bearer', credentials: 'abc' }],
    ['Bearer', { scheme: 'Bearer', credentials: '' }],
    ['Bearer ', { scheme: 'Bearer', credentials: '' }],
    ['Bearer a b  c', { scheme: 'Bearer', credentials: 'a b  c' }],
    ['Bearer abc ', { scheme: 'Bearer', credentials: 'abc ' }],
    ['Bearer a\nb', { scheme: 'Bearer', credentials: 'a\nb' }],
    ['Digest realm="x", nonce="y"', { scheme: 'Digest', credentials: 'realm="x", nonce="y"' }],
    ["!#$%&'*+-.^_`|~09AZaz x", { scheme: "!#$%&'*+-.^_`|~09AZaz", credentials: 'x' }],
    ['Bearer\tabc', undefined],
    ['Bearer\t abc', undefined],
    [' Bearer abc', undefined],
    ['', undefined],
    [' ', undefined],
    ['Bear(er) abc', undefined],
    ['Bearer: abc', undefined],
    ['Bé abc', undefined],
    ['"Bearer" abc', undefined],
    ['Bearer\u00a0abc', undefined],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parseAuthorization(value), expected);
    });
  }
});

describe('isScheme', () => {
  it('matches ASCII case-insensitively', () => {
    assert.equal(isScheme('Bearer', 'bearer'), true);
    assert.equal(isScheme('BEARER', 'bearer'), true);
    assert.equal(isScheme('bEaReR', 'bearer'), true);
    assert.equal(isScheme('basic', 'basic'), true);
  });

  it('refuses other words, prefixes and extensions', () => {
    assert.equal(isScheme('Basic', 'bearer'), false);
    assert.equal(isScheme('Bear', 'bearer'), false);
    assert.equal(isScheme('Bearerx', 'bearer'), false);
    assert.equal(isScheme('', 'bearer'), false);
  });

  it('does not fold non-ASCII letters that lower-case to ASCII', () => {
    // U+212A KELVIN SIGN lower-cases to "k"; U+0130 lower-cases to two code units.
    assert.equal(isScheme('\u212Aey', 'key'), false);
    assert.equal(isScheme('bas\u0130c', 'basic'), false);
  });
});
