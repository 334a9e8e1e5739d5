import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpBearer } from '../http/http-bearer.js';
import { AllOf, allOf } from './all-of.js';
import { isAllOfRequirement, resolveAuth } from './auth-spec.js';
import { ConfigurationError } from './errors.js';
import { FunctionAuthenticator, authFunction } from './function-authenticator.js';

const bearer = new HttpBearer({ authenticate: () => undefined });
const fn = (): string => 'x';

/** Asserts a ConfigurationError whose message names the route. */
function assertConfigurationError(run: () => unknown, where: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ConfigurationError);
    assert.equal(error.code, 'VOUCH_ERR_CONFIGURATION');
    assert.ok(error.message.includes(where), `message names ${where}: ${error.message}`);
    return true;
  });
}

describe('resolveAuth', () => {
  it('null disables authentication', () => {
    assert.equal(resolveAuth(null, 'GET /x'), null);
  });

  it('one authenticator is one requirement of one member', () => {
    const resolved = resolveAuth(bearer, 'GET /x');
    assert.deepEqual(resolved, [[bearer]]);
    assert.equal(isAllOfRequirement(resolved[0]!), false);
  });

  it('a function is wrapped, and always by the same authenticator', () => {
    const first = resolveAuth(fn, 'GET /a')![0]![0];
    const second = resolveAuth([bearer, fn], 'GET /b')![1]![0];
    const third = resolveAuth(allOf(bearer, fn), 'GET /c')![0]![1];
    assert.ok(first instanceof FunctionAuthenticator);
    assert.equal(first.fn, fn);
    assert.equal(second, first);
    assert.equal(third, first);
  });

  it('keeps an authFunction() authenticator as is', () => {
    const declared = authFunction(fn, { name: 'declared' });
    assert.deepEqual(resolveAuth(declared, 'GET /x'), [[declared]]);
  });

  it('a list gives one requirement per item, in order', () => {
    const other = new HttpBearer({ authenticate: () => undefined, name: 'other' });
    const resolved = resolveAuth([other, bearer], 'GET /x');
    assert.deepEqual(resolved, [[other], [bearer]]);
  });

  it('an all-of group gives one requirement naming every member', () => {
    const resolved = resolveAuth([allOf(bearer, fn), bearer], 'GET /x')!;
    assert.equal(resolved.length, 2);
    assert.equal(resolved[0]!.length, 2);
    assert.equal(resolved[0]![0], bearer);
    assert.equal(isAllOfRequirement(resolved[0]!), true);
    assert.equal(isAllOfRequirement(resolved[1]!), false);
  });

  it('marks a one-member group as a group', () => {
    const resolved = resolveAuth(allOf(bearer), 'GET /x')!;
    assert.deepEqual(resolved, [[bearer]]);
    assert.equal(isAllOfRequirement(resolved[0]!), true);
  });

  describe('configuration errors name the route', () => {
    it('an empty list, pointing to null', () => {
      assertConfigurationError(() => resolveAuth([], 'GET /pets'), 'GET /pets');
      assert.throws(() => resolveAuth([], 'GET /pets'), /null/);
    });

    const unknown: readonly [string, unknown][] = [
      ['undefined', undefined],
      ['a number', 42],
      ['a string', 'bearer'],
      ['a boolean', true],
      ['a plain object', { authenticate: fn }],
      ['a Map', new Map()],
      ['an object without prototype', Object.create(null)],
      ['an object with a nameless constructor', { constructor: undefined }],
      ['an instance of an anonymous class', new (class {})()],
      ['a class instance that is not an authenticator', new Date()],
    ];
    for (const [label, value] of unknown) {
      it(`${label} alone`, () => {
        assertConfigurationError(() => resolveAuth(value, 'POST /token'), 'POST /token');
      });
      it(`${label} in a list`, () => {
        assertConfigurationError(() => resolveAuth([bearer, value], 'GET /x'), 'GET /x');
      });
    }

    it('null inside a list', () => {
      assertConfigurationError(() => resolveAuth([bearer, null], 'GET /x'), 'GET /x');
    });

    it('a nested list', () => {
      assertConfigurationError(() => resolveAuth([bearer, [bearer]], 'GET /nested'), 'GET /nested');
      assert.throws(() => resolveAuth([[bearer]], 'GET /nested'), /nested list/);
    });

    it('names the kind of an unknown object', () => {
      assert.throws(() => resolveAuth(new Map(), 'GET /x'), /Map/);
      assert.throws(() => resolveAuth(Object.create(null), 'GET /x'), /object/);
      assert.throws(() => resolveAuth(7, 'GET /x'), /number/);
    });
  });

  it('accepts an AllOf built with the class', () => {
    const group = new AllOf([bearer]);
    assert.deepEqual(resolveAuth(group, 'GET /x'), [[bearer]]);
  });
});
