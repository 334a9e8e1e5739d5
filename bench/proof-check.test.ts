// Proves that the unit `npm run bench` counts DPoP's cost in is a real check of the pool's
// proofs: each signature verifies, a forged one aborts the timing, and ES256 only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { proofKey } from '../test/helpers/dpop-proof.js';
import { proofPool } from './dpop-proofs.js';
import { proofCheck } from './proof-check.js';

const about = { htu: 'https://api.test/vouch/dpop', token: 'eyJ0eXAiOiJhdCtqd3QifQ.e30.c2ln' };

describe('proofCheck', () => {
  it("times node:crypto's check of the pool's proofs, in CPU µs a check", async (t) => {
    const pool = proofPool(await proofKey('ES256'), about);
    t.after(() => {
      pool.close();
    });
    pool.add(3);
    const check = proofCheck([pool.next()!, pool.next()!, pool.next()!]);
    const micros = check.time(30);
    assert.ok(micros > 0 && micros < 100_000, String(micros));
  });

  it('aborts on a proof whose signature does not verify, and times ES256 only', async (t) => {
    const key = await proofKey('ES256');
    const pool = proofPool(key, about);
    t.after(() => {
      pool.close();
    });
    pool.add(2);
    const [good, other] = [pool.next()!, pool.next()!];
    // Another proof's signature over this one's claims: well-formed, and false.
    const forged = `${good.slice(0, good.lastIndexOf('.'))}${other.slice(other.lastIndexOf('.'))}`;
    assert.equal(proofCheck([good]).time(2) > 0, true);
    assert.throws(() => proofCheck([good, forged]).time(2), /proof 1 does not verify/);
    const header = Buffer.from(JSON.stringify({ alg: 'ES384', jwk: key.jwk })).toString(
      'base64url',
    );
    assert.throws(() => proofCheck([`${header}.e30.c2ln`]), /times ES256, not ES384/);
  });
});
