import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusalDelay, type RefusalDelay } from './refusal-delay.js';

/** How long after `since` the delay let a refusal through, ms. */
async function answeredAfter(delay: RefusalDelay, since: number): Promise<number> {
  await delay.until(since);
  return performance.now() - since;
}

test('answers no sooner than ms after the request, counting the time it already took', async () => {
  const delay = refusalDelay({ ms: 120 });
  const now = performance.now();
  const fresh = answeredAfter(delay, now);
  const late = answeredAfter(delay, now - 80);
  const overdue = answeredAfter(delay, now - 500);
  assert.equal(delay.held(), 2, 'the overdue refusal is not held');
  const [freshMs, lateMs, overdueMs] = await Promise.all([fresh, late, overdue]);
  assert.ok(freshMs >= 120, `answered ${freshMs} ms after its request`);
  assert.ok(lateMs >= 120 && lateMs < freshMs + 80, `answered ${lateMs} ms after its request`);
  assert.ok(overdueMs < 520, `answered ${overdueMs} ms after its request`);
  assert.equal(delay.held(), 0);
});

test('holds at most max refusals at once; past that one is answered at once', async () => {
  const delay = refusalDelay({ ms: 200, max: 3 });
  const now = performance.now();
  const held = Array.from({ length: 3 }, () => answeredAfter(delay, now));
  assert.equal(delay.held(), 3);
  assert.ok((await answeredAfter(delay, now)) < 100, 'the fourth is not held');
  const heldMs = await Promise.all(held);
  assert.ok(Math.min(...heldMs) >= 200, heldMs.join());
  assert.equal(delay.held(), 0);
  assert.ok((await answeredAfter(delay, performance.now())) >= 200, 'held again once freed');
});

test('holds a second by default', async () => {
  const ms = await answeredAfter(refusalDelay(), performance.now() - 900);
  assert.ok(ms >= 1000 && ms < 1400, `answered ${ms} ms after its request`);
});
