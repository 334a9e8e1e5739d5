import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestView } from '../core/request.js';
import { singleHeader } from './single-header.js';

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
