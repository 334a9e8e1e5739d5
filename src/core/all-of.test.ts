import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpBearer } from '../http/http-bearer.js';
import { AllOf, allOf, type AuthMember } from './all-of.js';
import { authFunction } from './function-authenticator.js';

const bearer = new HttpBearer({ authenticate: () => undefined });
const fn = (): string => 'x';

describe('allOf', () => {
  it('keeps its members in order', () => {
    const declared = authFunction(fn);
    const group = allOf(fn, bearer, declared);
    assert.ok(group instanceof AllOf);
    assert.deepEqual(group.members, [fn, bearer, declared]);
  });

  it('accepts a single member', () => {
    assert.deepEqual(allOf(bearer).members, [bearer]);
  });

  it('refuses an empty group', () => {
    assert.throws(() => allOf(), { code: 'VOUCH_ERR_CONFIGURATION' });
    assert.throws(() => new AllOf([]), { code: 'VOUCH_ERR_CONFIGURATION' });
  });

  const invalid: readonly [string, unknown][] = [
    ['a nested list', [bearer]],
    ['a nested group', allOf(bearer)],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'bearer'],
    ['a plain object', {}],
  ];
  for (const [label, member] of invalid) {
    it(`refuses ${label} as a member`, () => {
      assert.throws(() => allOf(bearer, member as AuthMember), { code: 'VOUCH_ERR_CONFIGURATION' });
    });
  }
});
