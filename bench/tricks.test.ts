// Proves that each trick of `npm run bench` is timed against a plain version giving the same
// answers, and that the check before timing catches one that does not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTricks, tricks } from './tricks.js';

describe('the tricks of npm run bench', () => {
  it('each plain version answers as its trick on the inputs timed', () => {
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
});
