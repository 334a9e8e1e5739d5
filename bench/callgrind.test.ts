import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { costsByFunction, countedInstructions, PerfMap, selfCosts } from './callgrind.js';

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

// Shaped as valgrind 3.19 writes a dump with --dump-instr=yes: names given once then by number,
// positions relative to the line before, a call's inclusive cost on the line after calls=.
const DUMP = `# callgrind format
version: 1
positions: instr line
events: Ir
summary: 1131

ob=(1) /usr/lib/libc.so.6
fl=(1) ???
fn=(1) memcpy
0x1000 0 100
+4 0 50
cfn=(2) 0x0000000000005000
calls=3 0x5000 0
* 0 999
fn=(2)
0x5000 0 300
+16 0 200
-8 0 400
fn=(1)
0x1008 0 81
`;

describe('selfCosts', () => {
  it('reads names, relative positions and calls as callgrind compresses them', () => {
    assert.deepEqual(selfCosts(DUMP), [
      { fn: 'memcpy', address: 0x1000, cost: 100 },
      { fn: 'memcpy', address: 0x1004, cost: 50 },
      { fn: '0x0000000000005000', address: 0x5000, cost: 300 },
      { fn: '0x0000000000005000', address: 0x5010, cost: 200 },
      { fn: '0x0000000000005000', address: 0x5008, cost: 400 },
      { fn: 'memcpy', address: 0x1008, cost: 81 },
    ]);
  });

  it('adds up to the summary: a call’s inclusive cost is not counted again', () => {
    const total = selfCosts(DUMP).reduce((sum, { cost }) => sum + cost, 0);
    assert.equal(total, 1131);
  });
});

describe('PerfMap', () => {
  const map = new PerfMap(
    ['5000 20 JS:*old', '6000 10 Builtin:LoadIC', '5000 10 JS:*verify', 'garbage'].join('\n'),
  );

  it('names the code at an address, the later entry where code space was reused', () => {
    assert.equal(map.nameOf(0x5008), 'JS:*verify');
    assert.equal(map.nameOf(0x5018), 'JS:*old');
    assert.equal(map.nameOf(0x6000), 'Builtin:LoadIC');
  });

  it('names nothing outside every entry', () => {
    assert.equal(map.nameOf(0x4fff), undefined);
    assert.equal(map.nameOf(0x5020), undefined);
    assert.equal(map.nameOf(0x6010), undefined);
  });
});

describe('costsByFunction', () => {
  it('sums by callgrind’s name, or by V8’s for code callgrind could not name', () => {
    const map = new PerfMap('5000 9 JS:*verify\n5009 20 RegExp:^a+$');
    assert.deepEqual(
      costsByFunction(selfCosts(DUMP), map),
      new Map([
        ['memcpy', 231],
        ['JS:*verify', 700],
        ['RegExp:^a+$', 200],
      ]),
    );
  });
});
