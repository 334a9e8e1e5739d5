import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ABSENT,
  AMBIGUOUS,
  REJECTED,
  isAccepted,
  isPromiseLike,
  judgeHook,
  refusal,
  withinLength,
} from './outcome.js';
import { HttpBearer } from '../http/http-bearer.js';
import { authFunction } from './function-authenticator.js';

describe('isAccepted', () => {
  for (const value of [undefined, null, false]) {
    it(`${String(value)} rejects`, () => {
      assert.equal(isAccepted(value), false);
    });
  }
  const accepted: readonly [string, unknown][] = [
    ['0', 0],
    ['-0', -0],
    ['NaN', Number.NaN],
    ['0n', 0n],
    ["''", ''],
    ['[]', []],
    ['{}', {}],
    ['true', true],
    ['a string', 'ann'],
    ['an object', { id: 1 }],
    ['a promise (judged unawaited)', Promise.resolve(undefined)],
  ];
  for (const [label, value] of accepted) {
    it(`${label} accepts`, () => {
      assert.equal(isAccepted(value), true);
    });
  }
});

describe('shared verdicts', () => {
  it('have their states and are frozen', () => {
    assert.equal(ABSENT.state, 'absent');
    assert.equal(REJECTED.state, 'rejected');
    assert.equal(AMBIGUOUS.state, 'ambiguous');
    for (const verdict of [ABSENT, REJECTED, AMBIGUOUS]) assert.ok(Object.isFrozen(verdict));
  });
});

describe('withinLength', () => {
  it('rejects a present credential longer than the limit, and passes anything else', () => {
    const present = (credential: string) => ({ state: 'present', credential }) as const;
    assert.equal(withinLength(present('abcd'), 3), REJECTED);
    const fits = present('abc');
    assert.equal(withinLength(fits, 3), fits);
    for (const found of [ABSENT, AMBIGUOUS, REJECTED]) assert.equal(withinLength(found, 0), found);
  });
});

describe('isPromiseLike and judgeHook', () => {
  it('tells thenables from values', () => {
    assert.equal(isPromiseLike(Promise.resolve(1)), true);
    assert.equal(isPromiseLike({ then: () => undefined }), true);
    for (const value of [1, 'x', null, undefined, { then: 1 }, () => undefined]) {
      assert.equal(isPromiseLike(value), false);
    }
  });

  it('judges a value at once and a pending one when it settles', async () => {
    assert.deepEqual(judgeHook(0), { state: 'accepted', value: 0 });
    assert.equal(judgeHook(null), REJECTED);
    const pending = judgeHook(Promise.resolve(2), 'b');
    assert.ok(pending instanceof Promise);
    assert.deepEqual(await pending, { state: 'accepted', value: 2, csrfBinding: 'b' });
    assert.equal(await judgeHook(Promise.resolve(false), 'b'), REJECTED);
  });
});

describe('verify answers synchronously when nothing was awaited', () => {
  const request = (authorization?: string) => ({
    method: 'GET',
    url: '/',
    headers: authorization === undefined ? {} : { authorization },
  });

  it('for an absent credential and for a synchronous hook', () => {
    const bearer = new HttpBearer({
      authenticate: (_r, token) => (token === 'ok' ? 1 : undefined),
    });
    assert.deepEqual(bearer.verify(request()), { state: 'absent' });
    assert.deepEqual(bearer.verify(request('Bearer ok')), { state: 'accepted', value: 1 });
    assert.deepEqual(bearer.verify(request('Bearer no')), { state: 'rejected' });
    assert.deepEqual(authFunction(() => 'fn').verify(request()), {
      state: 'accepted',
      value: 'fn',
    });
  });

  it('with a promise for an async hook', async () => {
    const bearer = new HttpBearer({ authenticate: async () => 1 });
    const verdict = bearer.verify(request('Bearer ok'));
    assert.ok(verdict instanceof Promise);
    assert.deepEqual(await verdict, { state: 'accepted', value: 1 });
  });
});

describe('refusal', () => {
  it('a rejection naming its reason, frozen', () => {
    const refused = refusal('invalid_dpop_proof');
    assert.deepEqual(refused, { state: 'rejected', error: 'invalid_dpop_proof' });
    assert.equal(Object.isFrozen(refused), true);
  });

  it('with headers for the 401, copied and frozen', () => {
    const headers = { 'dpop-nonce': 'n1' };
    const refused = refusal('use_dpop_nonce', headers);
    headers['dpop-nonce'] = 'changed';
    assert.deepEqual(refused, {
      state: 'rejected',
      error: 'use_dpop_nonce',
      headers: { 'dpop-nonce': 'n1' },
    });
    assert.equal(Object.isFrozen(refused.headers), true);
  });
});
