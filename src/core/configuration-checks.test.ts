import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from './errors.js';
import {
  claimValues,
  requireHook,
  requireHookOrSecrets,
  schemeNamePart,
  wholeNumber,
} from './configuration-checks.js';

describe('requireHook', () => {
  it('passes with a hook option, an override, or both', () => {
    assert.doesNotThrow(() => {
      requireHook('HttpBearer', true, false);
    });
    assert.doesNotThrow(() => {
      requireHook('HttpBearer', false, true);
    });
    assert.doesNotThrow(() => {
      requireHook('HttpBearer', true, true);
    });
  });

  it('throws ConfigurationError naming the kind when neither exists', () => {
    assert.throws(
      () => {
        requireHook('APIKeyQuery', false, false);
      },
      (error: unknown) =>
        error instanceof ConfigurationError &&
        error.code === 'VOUCH_ERR_CONFIGURATION' &&
        error.message.includes('APIKeyQuery'),
    );
  });
});

describe('requireHookOrSecrets', () => {
  it('passes with exactly one way of judging: a hook option, an override (or both), or secrets', () => {
    for (const [hasOption, overridden, hasSecrets] of [
      [true, false, false],
      [false, true, false],
      [true, true, false],
      [false, false, true],
    ] as const) {
      assert.doesNotThrow(() => {
        requireHookOrSecrets('HttpBearer', 'tokens', hasOption, overridden, hasSecrets);
      });
    }
  });

  it('throws ConfigurationError naming the kind and the option with none, or secrets and a hook', () => {
    for (const [hasOption, overridden, hasSecrets] of [
      [false, false, false],
      [true, false, true],
      [false, true, true],
    ] as const) {
      assert.throws(
        () => {
          requireHookOrSecrets('APIKeyQuery', 'keys', hasOption, overridden, hasSecrets);
        },
        (error: unknown) =>
          error instanceof ConfigurationError &&
          error.code === 'VOUCH_ERR_CONFIGURATION' &&
          error.message.includes('APIKeyQuery') &&
          error.message.includes('keys'),
      );
    }
  });
});

describe('schemeNamePart', () => {
  it('keeps A-Za-z0-9 . _ - and replaces everything else', () => {
    assert.equal(schemeNamePart('X-API-Key'), 'X-API-Key');
    assert.equal(schemeNamePart('a.b_c-d09'), 'a.b_c-d09');
    assert.equal(schemeNamePart('my key!'), 'my_key_');
    assert.equal(schemeNamePart('clé/ключ'), 'cl______');
    assert.equal(schemeNamePart(''), '');
  });
});

describe('wholeNumber', () => {
  it('takes the fallback for nothing, a whole number as given', () => {
    assert.equal(wholeNumber(undefined, 5000, 'x timeout'), 5000);
    assert.equal(wholeNumber(0, 5000, 'x timeout'), 0);
    assert.equal(wholeNumber(1, 5000, 'x timeout', { positive: true }), 1);
  });

  it('refuses what is not, naming the option, its unit and its least', () => {
    for (const value of [-1, 1.5, NaN, Infinity, 2 ** 53]) {
      assert.throws(
        () => wholeNumber(value, 1, 'x timeout', { unit: 'milliseconds' }),
        (error) =>
          error instanceof ConfigurationError &&
          error.message === 'x timeout must be a whole number of milliseconds, 0 or more',
      );
    }
    assert.throws(
      () => wholeNumber(0, 1, 'x size', { positive: true }),
      /^ConfigurationError: x size must be a whole number, more than 0$/,
    );
  });
});

describe('claimValues', () => {
  it('a string or a list of them; false for any', () => {
    assert.deepEqual(claimValues('a', 'no'), ['a']);
    assert.deepEqual(claimValues(['a', 'b'], 'no'), ['a', 'b']);
    assert.equal(claimValues(false, 'no'), undefined);
  });

  it('refuses nothing, an empty list, an empty string or a non-string', () => {
    for (const value of [undefined, [], '', ['a', ''], [1], true]) {
      assert.throws(
        () => claimValues(value, 'needs aud'),
        (error) => error instanceof ConfigurationError && error.message === 'needs aud',
      );
    }
  });
});
