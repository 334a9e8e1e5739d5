// The order routes are timed in: every route follows every other one equally often.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { williamsOrder } from './load.js';

/** How often route `b` comes right after route `a`, over `rounds` consecutive rounds. */
function followers(count: number, rounds: number): Map<string, number> {
  const pairs = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    const order = williamsOrder(count, round);
    for (let i = 1; i < order.length; i++) {
      const key = `${order[i - 1]}→${order[i]}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  }
  return pairs;
}

describe('williamsOrder', () => {
  for (const count of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`orders ${count} routes so that each follows every other one equally often`, () => {
      const rows = count % 2 === 0 ? count : 2 * count;
      for (let round = 0; round < rows; round++) {
        assert.deepEqual(
          williamsOrder(count, round).toSorted((a, b) => a - b),
          Array.from({ length: count }, (_, i) => i),
          `round ${round} is not an order of every route`,
        );
      }
      const pairs = followers(count, rows);
      // Every ordered pair of two different routes, and each as often as the others.
      assert.equal(pairs.size, count * (count - 1));
      assert.equal(new Set(pairs.values()).size <= 1, true, JSON.stringify([...pairs]));
      // The design repeats after its rows.
      assert.deepEqual(williamsOrder(count, rows), williamsOrder(count, 0));
    });
  }

  it('does not keep the cyclic order a rotation keeps', () => {
    // Rotating [0, 1, 2, 3] always puts 1 after 0; the design puts each route after 0 once.
    const afterZero = new Set<number>();
    for (let round = 0; round < 4; round++) {
      const order = williamsOrder(4, round);
      const at = order.indexOf(0);
      if (at < order.length - 1) afterZero.add(order[at + 1]!);
    }
    assert.deepEqual([...afterZero].toSorted(), [1, 2, 3]);
  });
});
