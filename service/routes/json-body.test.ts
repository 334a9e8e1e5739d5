import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { repeatedKey } from './json-body.js';

test('finds a key given twice in one object, however deep, as decoded', () => {
  const cases: [string, string | undefined][] = [
    ['{"a":1,"b":2}', undefined],
    ['{"a":1,"a":2}', 'a'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"a":{"b":1,"b":1}}', 'b'],
    ['[{"x":1},{"x":2},{"y":[{"z":0,"z":0}]}]', 'z'],
    // The same key in two objects is no repetition.
    ['{"a":{"k":1},"b":{"k":2}}', undefined],
    ['{"":1,"":2}', ''],
    ['"a string"', undefined],
    ['[1,"a",null,true]', undefined],
    // The first in document order among siblings.
    ['{"b":1,"a":1,"b":2,"a":2}', 'b'],
  ];
  for (const [text, key] of cases) assert.equal(repeatedKey(text), key, text);
});

test('finds nothing in what JSON.stringify writes, and every key repeated into it', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (object, key) => {
      const text = JSON.stringify(object);
      assert.equal(repeatedKey(text), undefined);
      const members = text.slice(1, -1);
      const name = JSON.stringify(key);
      const doubled = `{${name}:0,${name}:1${members === '' ? '' : `,${members}`}}`;
      assert.equal(repeatedKey(doubled), key);
    }),
  );
});

test('throws on what is not JSON, and on nesting too deep to walk', () => {
  for (const text of ['{"a":1,}', "{'a':1}", '{a:1}', '']) {
    assert.throws(() => repeatedKey(text), text);
  }
  assert.throws(() => repeatedKey('['.repeat(100_000) + ']'.repeat(100_000)), RangeError);
});
