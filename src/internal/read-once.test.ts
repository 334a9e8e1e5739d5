import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { HeaderMap, RequestView } from '../core/request.js';
import { queryParam, readCookie, singleHeader, startsWithFolded } from './read-once.js';

const view = (headers: RequestView['headers'], rawHeaders?: readonly string[]): RequestView =>
  rawHeaders === undefined
    ? { method: 'GET', url: '/', headers }
    : { method: 'GET', url: '/', headers, raw: { rawHeaders } };

describe('singleHeader', () => {
  it('is absent when the header is missing or empty', () => {
    assert.deepEqual(singleHeader(view({}), 'authorization'), { state: 'absent' });
    assert.deepEqual(singleHeader(view({ authorization: '' }), 'authorization'), {
      state: 'absent',
    });
    assert.deepEqual(singleHeader(view({ authorization: [] }), 'authorization'), {
      state: 'absent',
    });
    assert.deepEqual(singleHeader(view({ authorization: [''] }), 'authorization'), {
      state: 'absent',
    });
  });

  it('reads one line', () => {
    const request = view({ authorization: 'Bearer a' }, ['Authorization', 'Bearer a']);
    assert.deepEqual(singleHeader(request, 'authorization'), {
      state: 'present',
      credential: 'Bearer a',
    });
  });

  it('reads the parsed value when the adapter has no raw lines', () => {
    assert.deepEqual(singleHeader(view({ authorization: 'Bearer a' }), 'authorization'), {
      state: 'present',
      credential: 'Bearer a',
    });
    const noRaw: RequestView = { method: 'GET', url: '/', headers: { 'x-k': 'v' }, raw: {} };
    assert.deepEqual(singleHeader(noRaw, 'x-k'), { state: 'present', credential: 'v' });
  });

  it('is ambiguous when the raw lines repeat the header, whatever their case', () => {
    // Node keeps only the first Authorization line in `headers`.
    const request = view({ authorization: 'Bearer a' }, [
      'Authorization',
      'Bearer a',
      'AUTHORIZATION',
      'Bearer b',
    ]);
    assert.deepEqual(singleHeader(request, 'authorization'), { state: 'ambiguous' });
  });

  it('is ambiguous even when the second line is empty or repeats the first', () => {
    for (const second of ['', 'Bearer a']) {
      const request = view({ authorization: 'Bearer a' }, [
        'authorization',
        'Bearer a',
        'authorization',
        second,
      ]);
      assert.deepEqual(singleHeader(request, 'authorization'), { state: 'ambiguous' });
    }
  });

  it('is ambiguous when the parsed value is a list of several lines', () => {
    assert.deepEqual(singleHeader(view({ 'x-k': ['a', 'b'] }), 'x-k'), { state: 'ambiguous' });
    assert.deepEqual(singleHeader(view({ 'x-k': ['a'] }), 'x-k'), {
      state: 'present',
      credential: 'a',
    });
  });

  it('counts only lines of that exact name', () => {
    // A comma in the value makes the raw lines count: it could have been two lines joined.
    const request = view({ 'x-api-key': 'k, l' }, [
      'X-API-Key',
      'k, l',
      'X-API-Key-2',
      'other',
      'X-API-Ke',
      'other',
      'Authorization',
      'Bearer z',
    ]);
    assert.deepEqual(singleHeader(request, 'x-api-key'), { state: 'present', credential: 'k, l' });
  });

  it('only looks at names, never at values equal to the name', () => {
    const request = view({ 'x-k': 'x-k, x' }, ['x-k', 'x-k, x', 'other', 'x-k']);
    assert.deepEqual(singleHeader(request, 'x-k'), { state: 'present', credential: 'x-k, x' });
  });

  it('is ambiguous when a joined header came from several lines, an empty one included', () => {
    for (const [joined, second] of [
      ['k, k', 'k'],
      ['k, ', ''],
    ] as const) {
      const request = view({ 'x-api-key': joined }, ['X-API-Key', 'k', 'x-api-key', second]);
      assert.deepEqual(singleHeader(request, 'x-api-key'), { state: 'ambiguous' });
    }
    const cookies = view({ cookie: 'a=1; b=2' }, ['Cookie', 'a=1', 'Cookie', 'b=2']);
    assert.deepEqual(singleHeader(cookies, 'cookie'), { state: 'ambiguous' });
    const oneCookieLine = view({ cookie: 'a=1; b=2' }, ['Cookie', 'a=1; b=2']);
    assert.deepEqual(singleHeader(oneCookieLine, 'cookie'), {
      state: 'present',
      credential: 'a=1; b=2',
    });
  });

  it('is ambiguous for any header given twice, whatever the value', () => {
    for (const name of ['authorization', 'user-agent', 'referer', 'x-api-key', 'origin']) {
      const request = view({ [name]: 'first' }, [name, 'first', name.toUpperCase(), 'second']);
      assert.deepEqual(singleHeader(request, name), { state: 'ambiguous' }, name);
    }
  });

  it('reads the lines as the client sent them, not the parsed object', () => {
    // What an earlier hook rewriting request.headers leaves: the lines still decide.
    const rewritten = view({ authorization: 'Bearer forged' }, ['Authorization', 'Bearer sent']);
    assert.deepEqual(singleHeader(rewritten, 'authorization'), {
      state: 'present',
      credential: 'Bearer sent',
    });
    const added = view({ 'x-api-key': 'k' }, ['Host', 'x']);
    assert.deepEqual(singleHeader(added, 'x-api-key'), { state: 'absent' });
    const empty = view({}, ['X-API-Key', '']);
    assert.deepEqual(singleHeader(empty, 'x-api-key'), { state: 'absent' });
  });
});

describe('queryParam', () => {
  const cases: readonly [string, string, ReturnType<typeof queryParam>][] = [
    ['/x', 'key', { state: 'absent' }],
    ['/x?', 'key', { state: 'absent' }],
    ['/x?other=1', 'key', { state: 'absent' }],
    ['/x?key', 'key', { state: 'absent' }],
    ['/x?key=', 'key', { state: 'absent' }],
    ['/x?key=v', 'key', { state: 'present', credential: 'v' }],
    ['/x?a=1&key=v&b=2', 'key', { state: 'present', credential: 'v' }],
    ['/x?key=v&key=v', 'key', { state: 'ambiguous' }],
    ['/x?key=&key=v', 'key', { state: 'ambiguous' }],
    ['/x?key=v&KEY=w', 'key', { state: 'present', credential: 'v' }],
    ['/x?key=a+b', 'key', { state: 'present', credential: 'a b' }],
    ['/x?key=a%2Bb', 'key', { state: 'present', credential: 'a+b' }],
    ['/x?key=%zz%', 'key', { state: 'present', credential: '%zz%' }],
    ['/x?key=%E9', 'key', { state: 'present', credential: '\ufffd' }],
    ['/x?k%65y=v', 'key', { state: 'present', credential: 'v' }],
    ['/x?key=v#key=w', 'key', { state: 'present', credential: 'v' }],
    ['/x?a=1#key=w', 'key', { state: 'absent' }],
    ['/x?key=a=b', 'key', { state: 'present', credential: 'a=b' }],
    ['/x?api_key=v', 'key', { state: 'absent' }],
  ];
  for (const [url, name, expected] of cases) {
    it(`${url} [${name}] → ${expected.state}`, () => {
      assert.deepEqual(queryParam(url, name), expected);
    });
  }
});

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
