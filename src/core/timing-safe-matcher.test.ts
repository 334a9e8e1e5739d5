import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ConfigurationError, errorCodes } from './errors.js';
import { timingSafeIndex, timingSafeMatcher } from './timing-safe-matcher.js';

describe('timingSafeMatcher', () => {
  it('matches its secret and nothing else', () => {
    const matches = timingSafeMatcher('s3cret');
    assert.equal(matches('s3cret'), true);
    assert.equal(matches('s3creT'), false);
    assert.equal(matches('s3cre'), false);
    assert.equal(matches('s3cret '), false);
    assert.equal(matches(''), false);
  });

  it('matches any of several secrets, from an array or any iterable', () => {
    for (const secrets of [['current', 'previous'], new Set(['current', 'previous'])]) {
      const matches = timingSafeMatcher(secrets);
      assert.equal(matches('current'), true);
      assert.equal(matches('previous'), true);
      assert.equal(matches('next'), false);
    }
  });

  it('tells apart lengths that wrap around the padded secret', () => {
    // 'abc' is held in four code units; presented strings of 4, 7 and 8 units wrap around them.
    const matches = timingSafeMatcher('abc');
    assert.equal(matches('abc\0'), false);
    assert.equal(matches('abcabc\0'), false);
    assert.equal(matches('abc\0abc\0'), false);
    assert.equal(timingSafeMatcher('abcd')('abcdabcd'), false);
  });

  it('sees a difference in any code unit, the last of an odd or an even length included', () => {
    for (const secret of ['abcde', 'abcdef']) {
      const matches = timingSafeMatcher(secret);
      for (let i = 0; i < secret.length; i++) {
        assert.equal(
          matches(`${secret.slice(0, i)}_${secret.slice(i + 1)}`),
          false,
          `${secret} at ${i}`,
        );
      }
      assert.equal(matches(secret), true);
    }
  });

  it('is false when only the lengths differ by a multiple of 65536', () => {
    assert.equal(timingSafeMatcher('a')('a'.repeat(65536 + 1)), false);
  });

  it('compares code units: no Unicode folding, lone surrogates told apart', () => {
    assert.equal(timingSafeMatcher('\u00e9')('e\u0301'), false);
    assert.equal(timingSafeMatcher('\ud800')('\udc00'), false);
    assert.equal(timingSafeMatcher('a\ud800b')('a\ud800b'), true);
  });

  it('reads the secrets once: changing the iterable afterwards changes nothing', () => {
    const secrets = ['one'];
    const matches = timingSafeMatcher(secrets);
    secrets[0] = 'two';
    assert.equal(matches('one'), true);
    assert.equal(matches('two'), false);
  });

  it('agrees with includes() on any strings and any non-empty secrets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', minLength: 1 }), { minLength: 1, maxLength: 3 }),
        fc.string({ unit: 'binary' }),
        (secrets, other) => {
          const matches = timingSafeMatcher(secrets);
          assert.equal(matches(other), secrets.includes(other));
          for (const secret of secrets) assert.equal(matches(secret), true);
        },
      ),
    );
  });

  it('refuses to be made without a secret, or with an empty or non-string one', () => {
    for (const secrets of [
      [],
      new Set<string>(),
      [''],
      '',
      ['ok', ''],
      [42 as unknown as string],
    ]) {
      assert.throws(
        () => timingSafeMatcher(secrets),
        (error: unknown) =>
          error instanceof ConfigurationError &&
          error.code === errorCodes.configuration &&
          /timingSafeMatcher\(\)/.test(error.message),
      );
    }
  });
});

describe('timingSafeIndex', () => {
  it('gives the position of the secret presented, or -1', () => {
    const indexOf = timingSafeIndex(['current', 'previous', 'p']);
    assert.equal(indexOf('current'), 0);
    assert.equal(indexOf('previous'), 1);
    assert.equal(indexOf('p'), 2);
    for (const other of ['', 'curren', 'currentt', 'Current', 'pp', 'next']) {
      assert.equal(indexOf(other), -1, other);
    }
  });

  it('agrees with indexOf() on any strings and any distinct non-empty secrets', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'binary', minLength: 1 }), { minLength: 1, maxLength: 4 }),
        fc.string({ unit: 'binary' }),
        (secrets, other) => {
          const indexOf = timingSafeIndex(secrets);
          assert.equal(indexOf(other), secrets.indexOf(other));
          secrets.forEach((secret, i) => {
            assert.equal(indexOf(secret), i);
          });
        },
      ),
    );
  });

  it('refuses no secret, an empty or non-string one, or one given twice', () => {
    for (const secrets of [[], [''], ['ok', 'ok'], [42 as unknown as string]]) {
      assert.throws(
        () => timingSafeIndex(secrets),
        (error: unknown) =>
          error instanceof ConfigurationError && error.code === errorCodes.configuration,
      );
    }
  });
});
