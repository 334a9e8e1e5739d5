import assert from 'node:assert/strict';
import { createHash, createHmac, createSecretKey } from 'node:crypto';
import { test } from 'node:test';
import { isB64token } from 'vouch';
import { digest, loginDigest, newApiKey, newSecret } from './secrets.js';

test('newSecret gives 256 bits of base64url by default, a valid b64token', () => {
  const secret = newSecret();
  assert.equal(secret.length, 43);
  assert.match(secret, /^[A-Za-z0-9_-]+$/);
  assert.equal(Buffer.from(secret, 'base64url').length, 32);
  assert.ok(isB64token(secret));
});

test('newSecret never repeats and refuses fewer than 128 bits', () => {
  const seen = new Set(Array.from({ length: 1000 }, () => newSecret(16)));
  assert.equal(seen.size, 1000);
  assert.throws(() => newSecret(15), RangeError);
  assert.throws(() => newSecret(16.5), RangeError);
});

test('digest is SHA-256 in base64url', () => {
  const expected = createHash('sha256').update('abc').digest('base64url');
  assert.equal(digest('abc'), expected);
  assert.equal(digest('abc').length, 43);
  assert.notEqual(digest('abc'), digest('abd'));
});

test('digest matches the FIPS 180-2 vector and hashes the UTF-8 encoding', () => {
  // SHA-256("abc") = ba7816bf…f20015ad (FIPS 180-2, appendix B.1), here in base64url.
  assert.equal(digest('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  assert.equal(
    digest('clé'),
    createHash('sha256').update(Buffer.from('clé', 'utf8')).digest('base64url'),
  );
});

test('newApiKey is prefixed, 256 random bits, and its prefix is its first 11 characters', () => {
  const { key, prefix } = newApiKey();
  assert.match(key, /^vk_[A-Za-z0-9_-]{43}$/);
  assert.equal(prefix, key.slice(0, 11));
  assert.ok(prefix.startsWith('vk_'));
  assert.notEqual(newApiKey().key, key);
});

test('loginDigest: an HMAC under the key, of both halves, that no other split can match', () => {
  const key = newSecret();
  const alice = loginDigest(key, 'alice', 'wonder:land');
  assert.equal(alice, createHmac('sha256', key).update('5:alicewonder:land').digest('base64url'));
  assert.ok(!alice.includes('wonder'));
  // The same characters split elsewhere, the same pair under another key, another password.
  for (const other of [
    loginDigest(key, 'alice:', 'wonderland'),
    loginDigest(key, 'alicew', 'onder:land'),
    loginDigest(key, 'alic', 'ewonder:land'),
    loginDigest(newSecret(), 'alice', 'wonder:land'),
    loginDigest(key, 'alice', 'wonder:lane'),
  ]) {
    assert.notEqual(other, alice);
  }
  assert.equal(loginDigest(key, 'alice', 'wonder:land'), alice, 'the same pair, the same digest');
  // The key prepared once, as a hot path passes it: the same digest.
  const prepared = createSecretKey(Buffer.from(key));
  assert.equal(loginDigest(prepared, 'alice', 'wonder:land'), alice);
});
