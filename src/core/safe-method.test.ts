import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSafeMethod } from './safe-method.js';

test('GET, HEAD, OPTIONS and TRACE are safe, in any case; every other method is not', () => {
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'get', 'Head']) {
    assert.equal(isSafeMethod(method), true, method);
  }
  for (const method of [
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'PROPFIND',
    'LOCK',
    'SEARCH',
    'post',
    '',
  ]) {
    assert.equal(isSafeMethod(method), false, method);
  }
});
