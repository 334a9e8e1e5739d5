// Proves that each trick of `npm run bench` is timed against a plain version giving the same
// answers, and that the check before timing catches one that does not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTricks, timeTricks, tricks } from './tricks.js';

describe('the tricks of npm run bench', () => {
  it('each plain version answers as its trick on the inputs timed', () => {
    assert.doesNotThrow(() => {
      checkTricks();
    });
    for (const { trick, plain, inputs } of tricks) {
      assert.deepEqual(inputs.map(trick), inputs.map(plain));
    }
  });

  it('refuses to time a plain version that answers otherwise', () => {
    const [first] = tricks;
    const wrong = { ...first!, plain: () => false };
    assert.throws(() => {
      checkTricks([wrong]);
    }, /answer .* differently/);
  });

  it('times both versions in every round', () => {
    const [timed] = timeTricks(3, 10, [tricks[0]!]);
    assert.equal(timed!.runs.length, 3);
    assert.ok(timed!.runs.every((run) => run.trick > 0 && run.plain > 0));
  });
});
