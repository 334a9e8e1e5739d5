import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EmbeddedJWK } from 'jose';
import { nodeCrypto } from '../internal/node-crypto.js';
import { proofKey, signProof } from '../../test/helpers/dpop-proof.js';
import { DPOP_ALGORITHMS } from './dpop-algorithms.js';
import { isSignedBy, signatureCheck } from './proof-signature.js';

const htu = 'https://api.test/mcp';

/** The proof with one character of its signature changed, still base64url. */
function tampered(proof: string): string {
  const at = proof.length - 10;
  return proof.slice(0, at) + (proof[at] === 'A' ? 'B' : 'A') + proof.slice(at + 1);
}

describe('isSignedBy', () => {
  for (const alg of DPOP_ALGORITHMS) {
    it(`agrees with jose on ${alg} proofs: node:crypto's check and WebCrypto's`, async () => {
      const pair = await proofKey(alg === 'EdDSA' ? 'Ed25519' : alg);
      const proof = await signProof({ ...pair, alg }, { htu });
      const other = await signProof(await proofKey(pair.alg), { htu, header: { alg } });
      const key = await EmbeddedJWK({ alg, jwk: pair.jwk });
      const check = signatureCheck(alg, key, nodeCrypto);
      assert.ok(check, 'node:crypto is there on Node');
      for (const way of [check, undefined]) {
        const name = way === undefined ? 'jose' : 'node:crypto';
        assert.equal(await isSignedBy(proof, alg, key, way), true, name);
        assert.equal(await isSignedBy(tampered(proof), alg, key, way), false, `${name}: tampered`);
        assert.equal(await isSignedBy(other, alg, key, way), false, `${name}: another key`);
        const cut = proof.slice(0, proof.lastIndexOf('.') + 5);
        assert.equal(await isSignedBy(cut, alg, key, way), false, `${name}: a short signature`);
      }
    });
  }

  it('has no synchronous check on a runtime without node:crypto', async () => {
    const pair = await proofKey('ES256');
    const key = await EmbeddedJWK({ alg: 'ES256', jwk: pair.jwk });
    assert.equal(signatureCheck('ES256', key, undefined), undefined);
  });
});
