import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthenticationError, ConfigurationError, StoreUnavailableError } from '../core/errors.js';
import { lendToEngine } from './lend-to-engine.js';

const lend = <T extends Error>(error: T, label: string): T =>
  lendToEngine(error, 'answer', (vouch) => `${label}:${vouch.code}`);

test('gives vouch’s answered errors the property, hidden, on the same object', () => {
  const error = new AuthenticationError();
  assert.equal(lend(error, 'first'), error);
  assert.equal((error as unknown as { answer: string }).answer, 'first:VOUCH_ERR_UNAUTHENTICATED');
  assert.deepEqual(Object.keys(error), Object.keys(new AuthenticationError()));
  lend(error, 'again'); // thrown again: made again
  assert.equal((error as unknown as { answer: string }).answer, 'again:VOUCH_ERR_UNAUTHENTICATED');
  const outage = lend(new StoreUnavailableError(), 'outage');
  assert.equal(
    (outage as unknown as { answer: string }).answer,
    'outage:VOUCH_ERR_STORE_UNAVAILABLE',
  );
});

test('leaves alone other errors, server faults, a property of their own and frozen errors', () => {
  for (const error of [new Error('x'), new ConfigurationError('misdeclared')]) {
    assert.equal('answer' in lend(error, 'x'), false, error.name);
  }
  const own = Object.assign(new AuthenticationError(), { answer: 'mine' });
  assert.equal(lend(own, 'x').answer, 'mine');
  const frozen = Object.freeze(new AuthenticationError());
  assert.equal('answer' in lend(frozen, 'x'), false);
});
