import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapAwaitable } from './map-awaitable.js';

test('a value is mapped at once, never wrapped in a promise', () => {
  assert.equal(
    mapAwaitable(2, (value) => value * 10),
    20,
  );
  const lookup = (found: boolean): { id: number } | undefined => (found ? { id: 1 } : undefined);
  assert.equal(
    mapAwaitable(lookup(true), (value) => value?.id),
    1,
  );
  assert.equal(
    mapAwaitable(lookup(false), (value) => value?.id ?? 'none'),
    'none',
  );
});

test('a promise is mapped once it settles; a rejection passes through unmapped', async () => {
  const mapped = mapAwaitable(Promise.resolve(2), (value) => value * 10);
  assert.ok(mapped instanceof Promise);
  assert.equal(await mapped, 20);
  const failure = new Error('store unavailable');
  let called = false;
  await assert.rejects(
    Promise.resolve(
      mapAwaitable(Promise.reject(failure), () => {
        called = true;
      }),
    ),
    failure,
  );
  assert.equal(called, false);
});

test('a thenable that is not a Promise, as vouch Awaitable admits, is mapped once settled', async () => {
  const thenable: PromiseLike<number> = {
    then(onFulfilled) {
      return Promise.resolve(2).then(onFulfilled);
    },
  };
  const seen: unknown[] = [];
  const mapped = mapAwaitable(thenable, (value) => {
    seen.push(value);
    return value * 10;
  });
  assert.equal(await mapped, 20);
  assert.deepEqual(seen, [2]);
});
