// The cadence of the SQL replay stores' purges; sql-replay-stores.test.ts watches it delete rows
// of real databases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { purgeCadence } from './replay-table.js';

describe('purgeCadence', () => {
  it('runs the first claim’s purge, then every hundredth’s, each deleting a thousand at most', () => {
    const purgeWhenDue = purgeCadence();
    const ran: [claim: number, limit: number][] = [];
    for (let claim = 1; claim <= 250; claim += 1) {
      purgeWhenDue((limit) => ran.push([claim, limit]));
    }
    assert.deepEqual(ran, [
      [1, 1000],
      [101, 1000],
      [201, 1000],
    ]);
  });

  it('counts the claims of each store apart', () => {
    const first = purgeCadence();
    const second = purgeCadence();
    let ran = 0;
    first(() => (ran += 1));
    second(() => (ran += 1));
    first(() => (ran += 1));
    assert.equal(ran, 2);
  });
});
