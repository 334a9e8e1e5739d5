import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { nodeCrypto } from '../internal/node-crypto.js';
import { sha256url, sha256urlWith } from './sha256-url.js';

describe('sha256url', () => {
  it("hashes the UTF-8 of the text alike with node:crypto's one-shot hash, its Hash, and in plain code", () => {
    const { hash, ...withoutOneShot } = nodeCrypto!;
    assert.equal(typeof hash, 'function', 'this runtime has the one-shot hash');
    const ways = [sha256url, sha256urlWith(withoutOneShot), sha256urlWith(undefined)];
    for (const text of ['', 'access-token-1', 'jkt.jti-é-😀', 'lone \ud800 surrogate']) {
      const expected = createHash('sha256').update(text, 'utf8').digest('base64url');
      for (const [i, way] of ways.entries()) assert.equal(way(text), expected, `${i}: ${text}`);
    }
  });
});
