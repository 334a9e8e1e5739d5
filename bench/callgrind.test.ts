import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countedInstructions } from './callgrind.js';

describe('countedInstructions', () => {
  it('sums the counts of every thread, as callgrind_control prints them', () => {
    // Printed by valgrind 3.19's callgrind_control -e Ir for a Node server.
    const output =
      'PID 7473: node --import tsx bench/server.ts\n\n  Totals:        Ir \n' +
      '   Th 1  87,424,197 \n   Th 2         149 \n   Th 3  16,682,314 \n   Th 7           0 \n' +
      '   Th12         274 \n\n';
    assert.equal(countedInstructions(output), 87_424_197 + 149 + 16_682_314 + 274);
  });

  it('reads a single total', () => {
    assert.equal(
      countedInstructions('PID 1: node x\n\n  Totals:        Ir \n   1,234,567 \n'),
      1_234_567,
    );
  });

  it('throws rather than count nothing', () => {
    assert.throws(() => countedInstructions('PID 1: node x\n'), /no instruction counts/);
  });
});
