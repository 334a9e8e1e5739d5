import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RequestView } from '../core/request.js';
import {
  authorizationCredentials,
  isB64token,
  isScheme,
  parseAuthorization,
} from './authorization.js';

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

function request(...values: string[]): RequestView {
  return {
    method: 'GET',
    url: '/',
    headers: values.length === 0 ? {} : { authorization: values[0] },
    raw: { rawHeaders: values.flatMap((value) => ['Authorization', value]) },
  };
}

describe('authorizationCredentials', () => {
  const rows: [string, RequestView, string | undefined, string][] = [
    ['no header', request(), undefined, 'absent'],
    ['another scheme', request('Basic abc'), undefined, 'absent'],
    ['scheme word alone', request('Bearer'), undefined, 'absent'],
    ['a tab instead of a space', request('Bearer\tabc'), undefined, 'rejected'],
    ['a no-break space instead', request('Bearer\u00a0abc'), undefined, 'rejected'],
    ['a longer scheme word', request('Bearerx abc'), undefined, 'absent'],
    ['two header lines', request('Bearer a', 'Bearer b'), undefined, 'ambiguous'],
    ['longer than allowed', request(`Bearer ${'a'.repeat(11)}`), undefined, 'rejected'],
    ['present, any case, several spaces', request('bEaReR   abc'), 'abc', 'present'],
  ];
  for (const [name, input, credential, state] of rows) {
    it(`${name} → ${state}`, () => {
      const found = authorizationCredentials(input, 'bearer', 10);
      assert.equal(found.state, state);
      if (found.state === 'present') assert.equal(found.credential, credential);
    });
  }
});

describe('authorizationCredentials, against parseAuthorization and isScheme', () => {
  const unit = fc.constantFrom(
    ...'BbEeAaRrSsIiCc xX\t=:-\u212a\u00e9'.split(''),
    'Bearer',
    'Basic',
  );
  it('finds the same credentials for any header value', () => {
    fc.assert(
      fc.property(fc.string({ unit }), fc.constantFrom('bearer', 'basic'), (value, scheme) => {
        const parts = parseAuthorization(value);
        const expected =
          parts === undefined || !isScheme(parts.scheme, scheme) || parts.credentials === ''
            ? undefined
            : parts.credentials;
        const found = authorizationCredentials(request(value), scheme, 4096);
        assert.equal(found.state === 'present' ? found.credential : undefined, expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isB64token', () => {
  const valid = [
    'a',
    'abc',
    'ABCxyz0189',
    '-._~+/',
    'mF_9.B5f-4.1JqM',
    'abc=',
    'abc==',
    'abc===',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
  ];
  const invalid = [
    '',
    '=',
    '==abc',
    'ab=c',
    'abc=d=',
    'a b',
    'a\tb',
    'abc\n',
    '\nabc',
    'abc ',
    'a,b',
    'a"b',
    'a:b',
    'a%2Fb',
    'é',
    'abc\u0000',
  ];
  for (const value of valid) {
    it(`accepts ${JSON.stringify(value)}`, () => {
      assert.equal(isB64token(value), true);
    });
  }
  for (const value of invalid) {
    it(`refuses ${JSON.stringify(value)}`, () => {
      assert.equal(isB64token(value), false);
    });
  }
});
