import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isB64token } from './is-b64token.js';

describe('isB64token', () => {
  const valid = [
    'a',
    'abc',
    'ABCxyz0189',
    '-._~+/',
    'mF_9.B5f-4.1JqM',
    'abc=',
    'abc==',
    'abc===',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
  ];
  const invalid = [
    '',
    '=',
    '==abc',
    'ab=c',
    'abc=d=',
    'a b',
    'a\tb',
    'abc\n',
    '\nabc',
    'abc ',
    'a,b',
    'a"b',
    'a:b',
    'a%2Fb',
    'é',
    'abc\u0000',
  ];
  for (const value of valid) {
    it(`accepts ${JSON.stringify(value)}`, () => {
      assert.equal(isB64token(value), true);
    });
  }
  for (const value of invalid) {
    it(`refuses ${JSON.stringify(value)}`, () => {
      assert.equal(isB64token(value), false);
    });
  }
});
