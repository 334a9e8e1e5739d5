import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import { DPOP_ALGORITHMS, dpopAlgorithms } from './dpop-algorithms.js';

describe('dpopAlgorithms', () => {
  it('defaults to every asymmetric algorithm, frozen', () => {
    assert.equal(dpopAlgorithms(undefined), DPOP_ALGORITHMS);
    assert.equal(Object.isFrozen(DPOP_ALGORITHMS), true);
    assert.ok(DPOP_ALGORITHMS.includes('ES256') && DPOP_ALGORITHMS.includes('Ed25519'));
  });

  it('takes a list of them as a frozen copy', () => {
    const given = ['ES256', 'PS256'];
    const taken = dpopAlgorithms(given);
    given.push('RS256');
    assert.deepEqual(taken, ['ES256', 'PS256']);
    assert.equal(Object.isFrozen(taken), true);
  });

  it('refuses none and HS*, saying a proof is signed with a private key', () => {
    for (const alg of ['none', 'None', 'HS256', 'HS384', 'HS512']) {
      assert.throws(() => dpopAlgorithms(['ES256', alg]), {
        name: 'ConfigurationError',
        message: new RegExp(`${alg} is not asymmetric`),
      });
    }
  });

  it('refuses an empty list, an unknown algorithm, a repeated one', () => {
    const bad: unknown[] = [[], 'ES256', ['ES256K'], ['es256'], [256], ['ES256', 'ES256']];
    for (const value of bad) {
      assert.throws(() => dpopAlgorithms(value as string[]), ConfigurationError, String(value));
    }
  });
});
