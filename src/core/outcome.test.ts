import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ABSENT, AMBIGUOUS, REJECTED, isAccepted } from './outcome.js';

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
