import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryParam } from './query-param.js';

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
