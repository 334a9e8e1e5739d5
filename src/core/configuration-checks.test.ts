import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from './errors.js';
import { requireHook, requireHookOrSecrets, schemeNamePart } from './configuration-checks.js';

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
