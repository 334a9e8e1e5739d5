import assert from 'node:assert/strict';
import { generateKeyPairSync, generateKeySync } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { generateSecret } from 'jose';
import { testKey, type TestKey } from '../../test/helpers/jwt.js';
import { verificationKeys, type JwtKeySource } from './jwt-keys.js';

const timing = { timeout: 5000, cooldown: 60_000 };
const configurationError = { code: 'VOUCH_ERR_CONFIGURATION' };

describe('verificationKeys', () => {
  let rsa: TestKey;
  before(async () => {
    rsa = await testKey('RS256');
  });

  it('takes a JWKS URL, a JWK set, one public key or a secret, with fitting algorithms', async () => {
    const accepted: readonly JwtKeySource[] = [
      { jwksUrl: 'https://issuer.test/jwks.json', algorithms: ['RS256', 'ES256'] },
      { jwksUrl: new URL('http://127.0.0.1:1/jwks'), algorithms: ['EdDSA'] },
      { keys: { keys: [rsa.jwk] }, algorithms: ['RS256'] },
      { keys: rsa.jwk, algorithms: ['RS256', 'PS256'] },
      { keys: rsa.publicKey, algorithms: ['RS256'] },
      { keys: generateKeyPairSync('ed25519').publicKey, algorithms: ['EdDSA', 'Ed25519'] },
      { keys: new Uint8Array(64), algorithms: ['HS256', 'HS384', 'HS512'] },
      { keys: await generateSecret('HS256'), algorithms: ['HS256'] },
      { keys: generateKeySync('hmac', { length: 256 }), algorithms: ['HS256'] },
      { keys: { kty: 'oct', k: 'c2VjcmV0' }, algorithms: ['HS256'] },
    ];
    for (const source of accepted) {
      const { key, algorithms } = verificationKeys(source, timing);
      assert.ok(key);
      assert.deepEqual(algorithms, source.algorithms);
      assert.notEqual(algorithms, source.algorithms, 'a copy, so later changes change nothing');
    }
  });

  it('refuses, at construction, what could not verify safely', () => {
    const secret = new Uint8Array(64);
    const refused: readonly { what: string; source: JwtKeySource; message: RegExp }[] = [
      {
        what: 'no key source',
        source: { algorithms: ['RS256'] },
        message: /exactly one of jwksUrl and keys/,
      },
      {
        what: 'both key sources',
        source: { jwksUrl: 'https://issuer.test/jwks', keys: rsa.jwk, algorithms: ['RS256'] },
        message: /exactly one of jwksUrl and keys/,
      },
      {
        what: 'no algorithms',
        source: { keys: rsa.jwk } as unknown as JwtKeySource,
        message: /needs algorithms/,
      },
      { what: 'empty algorithms', source: { keys: rsa.jwk, algorithms: [] }, message: /needs/ },
      {
        what: 'alg none',
        source: { keys: rsa.jwk, algorithms: ['RS256', 'none'] },
        message: /"none" is not a JWS signature algorithm/,
      },
      {
        what: 'a misspelt algorithm',
        source: { keys: rsa.jwk, algorithms: ['RS265'] },
        message: /"RS265" is not/,
      },
      {
        what: 'HS256 with a JWKS URL',
        source: { jwksUrl: 'https://issuer.test/jwks', algorithms: ['RS256', 'HS256'] },
        message: /HS256 takes a secret, never a JWKS URL/,
      },
      {
        what: 'HS256 with a JWK set',
        source: { keys: { keys: [rsa.jwk] }, algorithms: ['HS256'] },
        message: /never a JWK set/,
      },
      {
        what: 'HS256 with a public key',
        source: { keys: rsa.publicKey, algorithms: ['HS512'] },
        message: /HS512 takes a secret, never a public key/,
      },
      {
        what: 'a public-key algorithm with a secret',
        source: { keys: secret, algorithms: ['HS256', 'RS256'] },
        message: /RS256 takes a public key, but keys is a secret/,
      },
      {
        what: 'a secret too short for HS256',
        source: { keys: new Uint8Array(31), algorithms: ['HS256'] },
        message: /HS256 needs at least 32 bytes/,
      },
      {
        what: 'a secret too short for HS512',
        source: { keys: new Uint8Array(48), algorithms: ['HS384', 'HS512'] },
        message: /HS512 needs at least 64 bytes/,
      },
      {
        what: 'a private key',
        source: { keys: rsa.privateKey, algorithms: ['RS256'] },
        message: /a public key, not a private one/,
      },
      {
        what: 'a private JWK',
        source: { keys: { ...rsa.jwk, d: 'AQAB' }, algorithms: ['RS256'] },
        message: /not a private one/,
      },
      {
        what: 'a JWK set holding a private key',
        source: { keys: { keys: [{ ...rsa.jwk, d: 'AQAB' }] }, algorithms: ['RS256'] },
        message: /public keys only, not a private key$/,
      },
      {
        what: 'a JWK set holding a secret',
        source: { keys: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }, algorithms: ['RS256'] },
        message: /not a secret key \(give a secret as keys itself\)/,
      },
      {
        what: 'a JWK set without a keys array',
        source: { keys: { keys: 'none' } as never, algorithms: ['RS256'] },
        message: /needs a keys array/,
      },
      {
        what: 'a JWK set that jose refuses',
        source: { keys: { keys: [{ ...rsa.jwk, x5u: () => 1 } as never] }, algorithms: ['RS256'] },
        message: /not a valid JWK set/,
      },
      {
        what: 'a string as keys',
        source: { keys: 'secret' as never, algorithms: ['HS256'] },
        message: /keys must be a JWK set, a JWK, a CryptoKey/,
      },
      {
        what: 'null as keys',
        source: { keys: null as never, algorithms: ['HS256'] },
        message: /keys must be/,
      },
      {
        what: 'an object that is no key',
        source: { keys: { type: 'magic' }, algorithms: ['HS256'] },
        message: /keys must be/,
      },
      {
        what: 'a JWKS URL that is not one',
        source: { jwksUrl: 'issuer.test/jwks', algorithms: ['RS256'] },
        message: /jwksUrl "issuer.test\/jwks" is not an http\(s\) URL/,
      },
      {
        what: 'a JWKS URL of another scheme',
        source: { jwksUrl: 'file:///etc/jwks.json', algorithms: ['RS256'] },
        message: /not an http\(s\) URL/,
      },
    ];
    for (const { what, source, message } of refused) {
      assert.throws(
        () => verificationKeys(source, timing),
        { ...configurationError, message },
        what,
      );
    }
  });
});
