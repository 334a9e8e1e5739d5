import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatChange, parseChange } from './change-message.js';
import type { CredentialChange } from './store.js';

test('every change reads back as itself', () => {
  const changes: CredentialChange[] = [
    { kind: 'token', digest: 'abc-_123' },
    { kind: 'session', digest: 'a:b' },
    { kind: 'applications' },
    { kind: 'all' },
  ];
  for (const change of changes) assert.deepEqual(parseChange(formatChange(change)), change);
  assert.equal(formatChange({ kind: 'token', digest: 'abc' }), 'token:abc');
});

test('anything unexpected means everything', () => {
  for (const odd of [
    'token',
    'token:',
    'session:',
    'applications:x',
    'users',
    'TOKEN:x',
    '',
    undefined,
  ]) {
    assert.deepEqual(parseChange(odd), { kind: 'all' }, String(odd));
  }
});
