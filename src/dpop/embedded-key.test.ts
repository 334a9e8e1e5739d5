import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK } from 'jose';
import { proofKey } from '../../test/helpers/dpop-proof.js';
import { embeddedKey } from './embedded-key.js';

describe('embeddedKey', () => {
  it('imports the public key with its RFC 7638 thumbprint, kept for the same alg and JWK', async () => {
    const pair = await proofKey('ES256');
    const now = Date.now();
    const first = await embeddedKey('ES256', pair.jwk, now);
    assert.equal(first.jkt, pair.jkt);
    assert.equal(first.key.type, 'public');
    assert.equal(await embeddedKey('ES256', { ...pair.jwk }, now + 1000), first, 'kept');
    const later = await embeddedKey('ES256', pair.jwk, now + 10 * 60_000);
    assert.notEqual(later, first, 'imported again after ten minutes');
    assert.equal(later.jkt, first.jkt);
  });

  it('keeps a JWK with other members apart, and checks it as jose does', async () => {
    const pair = await proofKey('ES256');
    const now = Date.now();
    const plain = await embeddedKey('ES256', pair.jwk, now);
    const signing = await embeddedKey('ES256', { ...pair.jwk, use: 'sig', alg: 'ES256' }, now);
    assert.notEqual(signing, plain);
    assert.equal(signing.jkt, plain.jkt, 'one key, one thumbprint');
    const refused = [
      { ...pair.jwk, use: 'enc' },
      { ...pair.jwk, alg: 'ES384' },
      await exportJWK(pair.privateKey),
      { kty: 'EC', crv: 'P-256', x: String(pair.jwk.x) },
    ];
    for (const jwk of refused) {
      await assert.rejects(embeddedKey('ES256', jwk, now), JSON.stringify(jwk));
    }
    await assert.rejects(embeddedKey('Ed25519', pair.jwk, now), 'a key of another type than alg');
  });
});
