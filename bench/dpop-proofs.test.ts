// Proves that the proofs `npm run bench` signs ahead are what vouch's own check accepts for the
// DPoP route's request, each handed out once with a jti of its own, and what a run needs.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { verifyDPoPProof } from '../src/dpop/index.js';
import { proofKey } from '../test/helpers/dpop-proof.js';
import { proofPool, proofsNeeded } from './dpop-proofs.js';

const htu = 'https://api.test/vouch/dpop';
const token = 'eyJ0eXAiOiJhdCtqd3QifQ.e30.c2ln';

describe('the pool of DPoP proofs', () => {
  it('hands out each proof once, as RFC 9449 §4.3 accepts it, then nothing', async (t) => {
    const key = await proofKey('ES256');
    const pool = proofPool(key, { htu, token });
    t.after(() => {
      pool.close();
    });
    pool.add(50);
    assert.deepEqual([pool.taken, pool.left], [0, 50]);
    const proofs = Array.from({ length: 50 }, () => pool.next()!);
    assert.equal(pool.next(), undefined);
    assert.deepEqual([pool.taken, pool.left], [50, 0]);
    assert.equal(new Set(proofs.map((proof) => decodeJwt(proof).jti)).size, 50);
    const rules = { algorithms: ['ES256'], maxAge: 60, clockTolerance: 5, now: Date.now() };
    for (const proof of [proofs[0]!, proofs[49]!]) {
      const checked = await verifyDPoPProof(proof, {
        ...rules,
        method: 'GET',
        url: htu,
        accessToken: token,
      });
      assert.deepEqual(checked.valid && checked.jkt, key.jkt);
      const elsewhere = { ...rules, method: 'GET', url: `${htu}/x`, accessToken: token };
      assert.equal((await verifyDPoPProof(proof, elsewhere)).valid, false);
    }
  });

  it('keeps them in a file, one a line, that a load generator reads on from `offset`', async () => {
    const pool = proofPool(await proofKey('ES256'), { htu, token });
    pool.add(10);
    pool.add(5);
    const lines = readFileSync(pool.file, 'latin1').split('\n');
    assert.deepEqual([lines.length, lines.at(-1), pool.bytes], [16, '', lines.join('\n').length]);
    assert.deepEqual([pool.next(), pool.next()], lines.slice(0, 2));
    assert.equal(pool.offset, lines[0]!.length + lines[1]!.length + 2);
    // Read there by the load generator: spent, sent or not.
    pool.spend(3);
    assert.deepEqual([pool.next(), pool.taken, pool.left], [lines[5], 6, 9]);
    pool.spend(100);
    assert.deepEqual([pool.next(), pool.taken, pool.left], [undefined, 15, 0]);
    pool.close();
    assert.equal(existsSync(pool.file), false);
  });

  it('signs ES256 only', async () => {
    const key = { ...(await proofKey('ES256')), alg: 'ES384' };
    assert.throws(() => proofPool(key, { htu, token }), /signs ES256, not ES384/);
  });

  it('holds what a run sends at up to 1.5× the Bearer rate, what is in flight, and the checks', () => {
    const load = { warmup: 2, rounds: 20, seconds: 1, connections: 50, pipelining: 1 };
    // (2 + 20 × 1) s × 10,000 × 1.5, 21 runs × 50 requests in flight, 3 checks.
    assert.equal(proofsNeeded(10_000, load), 330_000 + 1_050 + 3);
  });
});
