import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { nodeCrypto } from '../internal/node-crypto.js';
import { sha256url, sha256urlWith } from './sha256-url.js';

describe('sha256url', () => {
  it('hashes the UTF-8 of the text alike with node:crypto and in plain code', () => {
    const portable = sha256urlWith(undefined);
    for (const text of ['', 'access-token-1', 'jkt.jti-é-😀', 'lone \ud800 surrogate']) {
      const expected = createHash('sha256').update(text, 'utf8').digest('base64url');
      assert.equal(portable(text), expected, JSON.stringify(text));
      assert.equal(sha256urlWith(nodeCrypto)(text), expected);
      assert.equal(sha256url(text), expected);
    }
  });
});
