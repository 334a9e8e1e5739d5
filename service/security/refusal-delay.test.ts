import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusalDelay, type RefusalDelay } from './refusal-delay.js';

/** How long after `since` the delay let a refusal through, ms. */
async function answeredAfter(delay: RefusalDelay, since: number): Promise<number> {
  await delay.until(since);
  return performance.now() - since;
}

/** The names of the refusals answered so far, in the order they were. */
function answers(delay: RefusalDelay) {
  const order: string[] = [];
  return {
    order,
    answer: (name: string, since: number) =>
      answeredAfter(delay, since).then((ms) => {
        order.push(name);
        return ms;
      }),
  };
}

test('answers no sooner than ms after the request, counting the time it already took', async () => {
  const delay = refusalDelay({ ms: 120 });
  const { order, answer } = answers(delay);
  const now = performance.now();
  const fresh = answer('fresh', now);
  const late = answer('late', now - 80);
  const overdue = answer('overdue', now - 500);
  assert.equal(delay.held(), 2, 'the overdue refusal is not held');
  const [freshMs, lateMs] = await Promise.all([fresh, late, overdue]);
  assert.ok(freshMs >= 120, `answered ${freshMs} ms after its request`);
  assert.ok(lateMs >= 120 && lateMs < freshMs + 80, `answered ${lateMs} ms after its request`);
  // At once, whatever the machine's pace: before the timers of those held.
  assert.deepEqual(order, ['overdue', 'late', 'fresh']);
  assert.equal(delay.held(), 0);
});

test('holds at most max refusals at once; past that one is answered at once', async () => {
  const delay = refusalDelay({ ms: 200, max: 3 });
  const { order, answer } = answers(delay);
  const now = performance.now();
  const held = Array.from({ length: 3 }, () => answer('held', now));
  assert.equal(delay.held(), 3);
  await answer('fourth', now);
  assert.deepEqual(order, ['fourth'], 'the fourth is answered before any held one');
  const heldMs = await Promise.all(held);
  assert.ok(Math.min(...heldMs) >= 200, heldMs.join());
  assert.equal(delay.held(), 0);
  assert.ok((await answeredAfter(delay, performance.now())) >= 200, 'held again once freed');
});

test('holds a second by default', async () => {
  const ms = await answeredAfter(refusalDelay(), performance.now() - 900);
  assert.ok(ms >= 1000 && ms < 1400, `answered ${ms} ms after its request`);
});
