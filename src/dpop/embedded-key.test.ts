import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK } from 'jose';
import { proofKey } from '../../test/helpers/dpop-proof.js';
import { embeddedKey, knownKey } from './embedded-key.js';

describe('embeddedKey', () => {
  it('imports the public key with its RFC 7638 thumbprint, known by its header ten minutes', async () => {
    const pair = await proofKey('ES256');
    const now = Date.now();
    const segment = `header-${pair.jkt}`;
    assert.equal(knownKey(segment, now), undefined);
    const first = await embeddedKey(segment, { alg: 'ES256', jwk: pair.jwk }, now);
    assert.deepEqual([first.alg, first.jwk, first.jkt], ['ES256', pair.jwk, pair.jkt]);
    assert.equal(first.key.type, 'public');
    assert.equal(knownKey(segment, now + 1000), first, 'kept');
    assert.equal(knownKey(`${segment}x`, now), undefined, 'for that header text only');
    assert.equal(knownKey(segment, now + 10 * 60_000), undefined, 'forgotten after ten minutes');
    const later = await embeddedKey(segment, { alg: 'ES256', jwk: pair.jwk }, now + 10 * 60_000);
    assert.notEqual(later, first, 'imported again');
    assert.equal(later.jkt, first.jkt);
  });

  it('checks the JWK as jose does, and keeps none it refuses', async () => {
    const pair = await proofKey('ES256');
    const now = Date.now();
    const signing = await embeddedKey(
      'signing',
      {
        alg: 'ES256',
        jwk: { ...pair.jwk, use: 'sig', alg: 'ES256' },
      },
      now,
    );
    assert.equal(signing.jkt, pair.jkt, 'one key, one thumbprint');
    const refused = [
      { ...pair.jwk, use: 'enc' },
      { ...pair.jwk, alg: 'ES384' },
      await exportJWK(pair.privateKey),
      { kty: 'EC', crv: 'P-256', x: String(pair.jwk.x) },
    ];
    for (const jwk of refused) {
      const segment = JSON.stringify(jwk);
      await assert.rejects(embeddedKey(segment, { alg: 'ES256', jwk }, now), segment);
      assert.equal(knownKey(segment, now), undefined);
    }
    const other = { alg: 'Ed25519', jwk: pair.jwk };
    await assert.rejects(embeddedKey('other', other, now), 'a key of another type than alg');
  });
});
