import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decide, PASS, STOP, type Step } from './precedence.js';

const cases: readonly (readonly [string, readonly Step<string>[], unknown])[] = [
  ['one declaration', ['app', STOP], { deciding: 'app', covered: ['app'] }],
  [
    'the last before what may answer',
    ['app', 'router', 'route', STOP],
    { deciding: 'route', covered: ['app', 'router', 'route'] },
  ],
  [
    'middleware that hands on is passed over',
    ['app', PASS, 'route', STOP],
    { deciding: 'route', covered: ['app', 'route'] },
  ],
  [
    'what may answer ends the search: a later declaration decides again',
    ['app', PASS, STOP, 'route', STOP],
    { deciding: 'app', covered: ['app'] },
  ],
  [
    'to the end of what runs',
    ['app', PASS, 'router'],
    { deciding: 'router', covered: ['app', 'router'] },
  ],
  [
    'middleware before the first declaration',
    [PASS, 'app', STOP],
    { deciding: 'app', covered: ['app'] },
  ],
  ['what may answer before any declaration', [STOP, 'app'], undefined],
  ['nothing', [], undefined],
];

for (const [name, steps, expected] of cases) {
  test(`decide: ${name}`, () => {
    assert.deepEqual(decide(steps), expected);
  });
}
