import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HeaderMap } from '../core/request.js';
import { readCookie } from './read-cookie.js';

describe('readCookie', () => {
  const cases: readonly [string, HeaderMap, ReturnType<typeof readCookie>][] = [
    ['no cookie header', {}, { state: 'absent' }],
    ['empty header', { cookie: '' }, { state: 'absent' }],
    ['another cookie', { cookie: 'a=1' }, { state: 'absent' }],
    ['a pair without "="', { cookie: 'sid; a=1' }, { state: 'absent' }],
    ['empty value', { cookie: 'sid=' }, { state: 'absent' }],
    ['empty quoted value', { cookie: 'sid=""' }, { state: 'absent' }],
    ['a value', { cookie: 'sid=abc' }, { state: 'present', credential: 'abc' }],
    ['among others', { cookie: 'a=1; sid=abc; b=2' }, { state: 'present', credential: 'abc' }],
    ['no space after ";"', { cookie: 'a=1;sid=abc;b=2' }, { state: 'present', credential: 'abc' }],
    ['spaces around', { cookie: ' sid = abc ;' }, { state: 'present', credential: 'abc' }],
    ['a quoted value', { cookie: 'sid="abc"' }, { state: 'present', credential: 'abc' }],
    ['a lone quote', { cookie: 'sid="' }, { state: 'present', credential: '"' }],
    ['a value with "="', { cookie: 'sid=a=b' }, { state: 'present', credential: 'a=b' }],
    ['percent-encoded', { cookie: 'sid=a%2Fb%20c' }, { state: 'present', credential: 'a/b c' }],
    ['bad percent-encoding kept', { cookie: 'sid=a%zz' }, { state: 'present', credential: 'a%zz' }],
    ['invalid UTF-8 kept', { cookie: 'sid=%E9' }, { state: 'present', credential: '%E9' }],
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
