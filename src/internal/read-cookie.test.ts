import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { HeaderMap } from '../core/request.js';
import { readCookie } from './read-cookie.js';

describe('readCookie', () => {
  const cases: readonly [string, HeaderMap, ReturnType<typeof readCookie>][] = [
    ['no cookie header', {}, { state: 'absent' }],
    ['empty header', { cookie: '' }, { state: 'absent' }],
    ['another cookie', { cookie: 'a=1' }, { state: 'absent' }],
    ['a pair without "="', { cookie: 'sid; a=1' }, { state: 'absent' }],
    ['empty value', { cookie: 'sid=' }, { state: 'absent' }],
    ['empty quoted value, as sent', { cookie: 'sid=""' }, { state: 'present', credential: '""' }],
    ['a value', { cookie: 'sid=abc' }, { state: 'present', credential: 'abc' }],
    ['among others', { cookie: 'a=1; sid=abc; b=2' }, { state: 'present', credential: 'abc' }],
    ['no space after ";"', { cookie: 'a=1;sid=abc;b=2' }, { state: 'present', credential: 'abc' }],
    ['spaces around', { cookie: ' sid = abc ;' }, { state: 'present', credential: 'abc' }],
    ['a quoted value, as sent', { cookie: 'sid="abc"' }, { state: 'present', credential: '"abc"' }],
    ['a lone quote', { cookie: 'sid="' }, { state: 'present', credential: '"' }],
    ['a value with "="', { cookie: 'sid=a=b' }, { state: 'present', credential: 'a=b' }],
    // Credentials are read raw, never decoded (contract §1): %5F is not "_".
    [
      'percent-encoded, as sent',
      { cookie: 'sid=a%2Fb%5F' },
      { state: 'present', credential: 'a%2Fb%5F' },
    ],
    ['bad percent-encoding', { cookie: 'sid=a%zz' }, { state: 'present', credential: 'a%zz' }],
    ['invalid UTF-8', { cookie: 'sid=%E9' }, { state: 'present', credential: '%E9' }],
    ['name is case-sensitive', { cookie: 'SID=abc' }, { state: 'absent' }],
    ['a longer name', { cookie: 'sid2=abc' }, { state: 'absent' }],
    ['twice', { cookie: 'sid=a; sid=b' }, { state: 'ambiguous' }],
    ['twice, same value', { cookie: 'sid=a; sid=a' }, { state: 'ambiguous' }],
    ['twice, one empty', { cookie: 'sid=; sid=a' }, { state: 'ambiguous' }],
    ['lines as an array', { cookie: ['a=1', 'sid=abc'] }, { state: 'present', credential: 'abc' }],
    ['twice across lines', { cookie: ['sid=a', 'sid=b'] }, { state: 'ambiguous' }],
  ];
  for (const [label, headers, expected] of cases) {
    it(`${label} → ${expected.state}`, () => {
      assert.deepEqual(readCookie(headers, 'sid'), expected);
    });
  }
});

describe('readCookie, against splitting the header into pairs', () => {
  // The plain reading of the rule: split at ";", a pair's name is what precedes its first "=",
  // both trimmed. readCookie scans for the name instead; the two must always agree.
  function byPairs(headers: HeaderMap, name: string): ReturnType<typeof readCookie> {
    const header = headers.cookie;
    if (header === undefined) return { state: 'absent' };
    const text = typeof header === 'string' ? header : header.join('; ');
    const values = text.split(';').flatMap((pair) => {
      const eq = pair.indexOf('=');
      return eq !== -1 && pair.slice(0, eq).trim() === name ? [pair.slice(eq + 1).trim()] : [];
    });
    if (values.length > 1) return { state: 'ambiguous' };
    const [found] = values;
    if (found === undefined || found === '') return { state: 'absent' };
    return { state: 'present', credential: found };
  }

  const piece = fc.constantFrom(
    'sid',
    'si',
    'd',
    'sid2',
    'xsid',
    '=',
    ';',
    '; ',
    ' ',
    '\t',
    '\u00a0',
    '\ufeff',
    '"',
    '%2F',
    '%',
    'a',
    'b=c',
  );
  const line = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
  const headers: fc.Arbitrary<HeaderMap> = fc.oneof(
    fc.constant({}),
    line.map((cookie) => ({ cookie })),
    fc.array(line, { minLength: 1, maxLength: 3 }).map((cookie) => ({ cookie })),
    fc.string().map((cookie) => ({ cookie })),
  );

  it('answers as the split reading does, for any header', () => {
    fc.assert(
      fc.property(headers, (h) => {
        assert.deepEqual(readCookie(h, 'sid'), byPairs(h, 'sid'));
      }),
      { numRuns: 20_000 },
    );
  });
});
