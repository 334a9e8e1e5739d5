import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { generateProof } from 'dpop';
import { decodeJwt, exportJWK, generateSecret, SignJWT } from 'jose';
import { handMade } from '../../test/helpers/jwt.js';
import { athOf, proofKey, signProof, type ProofKey } from '../../test/helpers/dpop-proof.js';
import { DPOP_ALGORITHMS } from './dpop-algorithms.js';
import { dpopNonces } from './dpop-nonces.js';
import { verifyDPoPProof, type DPoPProofExpectations } from './verify-dpop-proof.js';

const URL_ = 'https://api.test/mcp';
const TOKEN = 'access-token-1';
const INVALID = { valid: false, error: 'invalid_dpop_proof' };
const nonces = dpopNonces({ secret: 'a-nonce-secret-of-32-characters!!' });

const expected = (over: Partial<DPoPProofExpectations> = {}): DPoPProofExpectations => ({
  method: 'GET',
  url: URL_,
  accessToken: TOKEN,
  algorithms: DPOP_ALGORITHMS,
  maxAge: 60,
  clockTolerance: 5,
  now: Date.now(),
  ...over,
});

describe('verifyDPoPProof (RFC 9449 §4.3)', () => {
  let key: ProofKey;
  before(async () => {
    key = await proofKey('ES256');
  });
  const now = () => Math.floor(Date.now() / 1000);
  /** The second a refusal's proof is made and checked at: one clock for both. */
  let at = now();

  it('accepts a proof from the dpop package: the thumbprint, a replay key, the end of the window', async () => {
    const proof = await generateProof(key, URL_, 'GET', undefined, TOKEN);
    const { iat, jti } = decodeJwt(proof) as { iat: number; jti: string };
    const result = await verifyDPoPProof(proof, expected({ now: iat * 1000 }));
    assert.ok(result.valid);
    assert.equal(result.jkt, key.jkt);
    const digest = createHash('sha256').update(`${key.jkt}.${jti}`).digest('base64url');
    assert.equal(result.replayKey, digest, 'the thumbprint and jti, hashed');
    assert.equal(result.expiresAt, (iat + 65) * 1000, 'iat + maxAge + clockTolerance');
  });

  it('accepts every default algorithm the dpop package signs with', async () => {
    for (const alg of ['ES256', 'Ed25519', 'PS256', 'RS256'] as const) {
      const pair = await proofKey(alg);
      const proof = await generateProof(pair, URL_, 'GET', undefined, TOKEN);
      const result = await verifyDPoPProof(proof, expected());
      assert.equal(result.valid && result.jkt, pair.jkt, alg);
    }
  });

  it('checks a header it has seen against every rule of the call: alg allowed, signature', async () => {
    const pair = await proofKey('ES256');
    const seen = await signProof(pair, { htu: URL_, token: TOKEN });
    assert.equal((await verifyDPoPProof(seen, expected())).valid, true);
    const again = await signProof(pair, { htu: URL_, token: TOKEN });
    assert.equal(again.split('.')[0], seen.split('.')[0], 'the same header');
    assert.deepEqual(await verifyDPoPProof(again, expected({ algorithms: ['RS256'] })), INVALID);
    const forged = `${again.slice(0, again.lastIndexOf('.'))}.${seen.split('.')[2]}`;
    assert.deepEqual(await verifyDPoPProof(forged, expected()), INVALID);
    assert.deepEqual(await verifyDPoPProof(`${again.split('.')[0]}.e30`, expected()), INVALID);
    assert.equal((await verifyDPoPProof(again, expected())).valid, true);
  });

  it('§4.3 (9): compares htu and the URL normalised, without query or fragment', async () => {
    const proof = await signProof(key, { htu: 'HTTPS://API.test:443/./mcp', token: TOKEN });
    assert.equal((await verifyDPoPProof(proof, expected())).valid, true);
    const other = await signProof(key, { htu: URL_, token: TOKEN });
    const server = expected({ url: 'https://api.test/%6Dcp' });
    assert.equal((await verifyDPoPProof(other, server)).valid, true);
  });

  /** Each a proof with one defect, by the section it breaks. */
  const refusals: readonly [string, () => Promise<string>, Partial<DPoPProofExpectations>?][] = [
    ['§4.3 (2): not a JWT', async () => 'not-a-jwt'],
    ['§4.3 (2): a JWE-shaped five parts', async () => 'a.b.c.d.e'],
    ['§4.3 (2): too long', async () => `${'a'.repeat(8190)}.b.c`],
    [
      '§4.3 (4): typ JWT',
      () => signProof(key, { htu: URL_, token: TOKEN, header: { typ: 'JWT' } }),
    ],
    [
      '§4.3 (4): no typ',
      () => signProof(key, { htu: URL_, token: TOKEN, header: { typ: undefined } }),
    ],
    [
      '§4.3 (5): alg not allowed',
      () => signProof(key, { htu: URL_, token: TOKEN }),
      { algorithms: ['RS256'] },
    ],
    [
      '§4.3 (5): alg none',
      async () =>
        handMade(
          { alg: 'none', typ: 'dpop+jwt', jwk: key.jwk },
          { htm: 'GET', htu: URL_, iat: at, jti: 'j', ath: athOf(TOKEN) },
        ),
    ],
    [
      '§4.3 (5): alg HS256, jwk a secret',
      async () => {
        const secret = await generateSecret('HS256', { extractable: true });
        return new SignJWT({ htm: 'GET', htu: URL_, iat: at, jti: 'j', ath: athOf(TOKEN) })
          .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: await exportJWK(secret) })
          .sign(secret);
      },
    ],
    [
      '§4.3 (3): no jwk',
      () => signProof(key, { htu: URL_, token: TOKEN, header: { jwk: undefined } }),
    ],
    [
      '§4.3 (3): jwk not an object',
      () => signProof(key, { htu: URL_, token: TOKEN, header: { jwk: 'key' } }),
    ],
    [
      '§4.3 (3): jwk without kty',
      () =>
        signProof(key, {
          htu: URL_,
          token: TOKEN,
          header: { jwk: { ...key.jwk, kty: undefined } },
        }),
    ],
    [
      'RFC 7515 §4.1.11: a critical extension',
      () =>
        new SignJWT({ htm: 'GET', htu: URL_, iat: at, jti: 'j', ath: athOf(TOKEN) })
          .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk, crit: ['x'], x: 1 })
          .sign(key.privateKey, { crit: { x: true } }),
    ],
    [
      '§4.3 (6): signed by another key',
      async () => {
        const other = await proofKey('ES256');
        return signProof(other, { htu: URL_, token: TOKEN, header: { jwk: key.jwk } });
      },
    ],
    [
      '§4.3 (6): jwk of another type than alg',
      () =>
        signProof(key, {
          htu: URL_,
          token: TOKEN,
          header: { jwk: { kty: 'OKP', crv: 'Ed25519', x: key.jwk.x } },
        }),
    ],
    ['§4.3 (6): an RSA key under 2048 bits', () => weakRsaProof(at)],
    [
      '§4.3 (7): a private key in jwk',
      async () => {
        const jwk = await exportJWK(key.privateKey);
        return signProof(key, { htu: URL_, token: TOKEN, header: { jwk } });
      },
    ],
    [
      '§4.3 (8): htm POST for a GET',
      () => signProof(key, { htm: 'POST', htu: URL_, token: TOKEN }),
    ],
    ['§4.3 (8): htm get, not GET', () => signProof(key, { htm: 'get', htu: URL_, token: TOKEN })],
    [
      '§4.3 (9): htu of another path',
      () => signProof(key, { htu: 'https://api.test/other', token: TOKEN }),
    ],
    [
      '§4.3 (9): htu of another origin',
      () => signProof(key, { htu: 'http://api.test/mcp', token: TOKEN }),
    ],
    ['§4.3 (9): htu with a query', () => signProof(key, { htu: `${URL_}?a=1`, token: TOKEN })],
    ['§4.3 (9): htu with a fragment', () => signProof(key, { htu: `${URL_}#f`, token: TOKEN })],
    [
      '§4.3 (9): htu not a string',
      () => signProof(key, { htu: URL_, token: TOKEN, claims: { htu: 1 } }),
    ],
    [
      '§4.3 (9): the server cannot tell its URL',
      () => signProof(key, { htu: URL_, token: TOKEN }),
      { url: 'not a url' },
    ],
    [
      '§4.3 (11): iat stale',
      () => signProof(key, { htu: URL_, token: TOKEN, claims: { iat: at - 66 } }),
    ],
    [
      '§4.3 (11): iat in the future',
      () => signProof(key, { htu: URL_, token: TOKEN, claims: { iat: at + 6 } }),
    ],
    [
      '§4.3 (11): iat missing',
      () => signProof(key, { htu: URL_, token: TOKEN, claims: { iat: undefined } }),
    ],
    [
      '§4.3 (11): iat a string',
      () => signProof(key, { htu: URL_, token: TOKEN, claims: { iat: String(at) } }),
    ],
    [
      '§4.2: jti missing',
      () => signProof(key, { htu: URL_, token: TOKEN, claims: { jti: undefined } }),
    ],
    ['§4.2: jti empty', () => signProof(key, { htu: URL_, token: TOKEN, claims: { jti: '' } })],
    [
      '§4.3 (12): ath of another token',
      () => signProof(key, { htu: URL_, token: 'another-token' }),
    ],
    ['§4.3 (12): ath missing', () => signProof(key, { htu: URL_ })],
  ];
  for (const [name, make, over] of refusals) {
    it(`refuses ${name}`, async () => {
      at = now();
      const proof = await make();
      assert.deepEqual(
        await verifyDPoPProof(proof, expected({ now: at * 1000, ...over })),
        INVALID,
      );
    });
  }

  it('accepts iat at either edge of the window', async () => {
    at = now();
    for (const iat of [at - 65, at + 5]) {
      const proof = await signProof(key, { htu: URL_, token: TOKEN, claims: { iat } });
      const result = await verifyDPoPProof(proof, expected({ now: at * 1000 }));
      assert.equal(result.valid, true, String(iat - at));
    }
  });

  it('accepts typ in any case and as a media type', async () => {
    for (const typ of ['DPoP+JWT', 'application/dpop+jwt']) {
      const proof = await signProof(key, { htu: URL_, token: TOKEN, header: { typ } });
      assert.equal((await verifyDPoPProof(proof, expected())).valid, true, typ);
    }
  });

  describe('§9: with server nonces', () => {
    it('accepts the nonce of the moment', async () => {
      const nonce = nonces.issue(Date.now());
      const proof = await generateProof(key, URL_, 'GET', nonce, TOKEN);
      assert.equal((await verifyDPoPProof(proof, expected({ nonces }))).valid, true);
    });

    it('asks for one when the proof has none, or a stale or forged one, naming the fresh one', async () => {
      const at = Date.now();
      const stale = nonces.issue(at - 3 * 300_000);
      const fresh = { valid: false, error: 'use_dpop_nonce', nonce: nonces.issue(at) };
      for (const nonce of [undefined, stale, 'forged']) {
        const proof = await generateProof(key, URL_, 'GET', nonce, TOKEN);
        assert.deepEqual(await verifyDPoPProof(proof, expected({ nonces, now: at })), fresh);
      }
    });

    it('refuses a bad proof as such, whatever its nonce', async () => {
      const proof = await signProof(key, { htm: 'POST', htu: URL_, token: TOKEN });
      assert.deepEqual(await verifyDPoPProof(proof, expected({ nonces })), INVALID);
    });
  });
});

/** An RS256 proof signed with a 1024-bit key, by WebCrypto itself: jose signs with none so weak. */
async function weakRsaProof(iat: number): Promise<string> {
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const { privateKey, publicKey } = await crypto.subtle.generateKey(
    { ...algorithm, modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  );
  const { kty, n, e } = await crypto.subtle.exportKey('jwk', publicKey);
  const claims = { htm: 'GET', htu: URL_, iat, jti: 'weak', ath: athOf(TOKEN) };
  const unsigned = handMade({ alg: 'RS256', typ: 'dpop+jwt', jwk: { kty, n, e } }, claims);
  const input = new TextEncoder().encode(unsigned.slice(0, -1));
  const signature = await crypto.subtle.sign(algorithm, privateKey, input);
  return unsigned + Buffer.from(signature).toString('base64url');
}
