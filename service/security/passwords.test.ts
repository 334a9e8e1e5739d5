import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  dummyHash,
  hashPassword,
  OWASP_SCRYPT,
  verifyPassword,
  type ScryptParameters,
} from './passwords.js';

// Cheap parameters keep the suite fast; one test below pays OWASP's real cost.
const FAST: ScryptParameters = { N: 2 ** 10, r: 8, p: 1 };

test('a hash verifies its password and nothing else', async () => {
  const hash = await hashPassword('correct horse battery staple', FAST);
  assert.match(hash, /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.equal(await verifyPassword('correct horse battery staple', hash), true);
  assert.equal(await verifyPassword('correct horse battery stapl', hash), false);
  assert.equal(await verifyPassword('', hash), false);
});

test('each hash has its own salt', async () => {
  const [one, two] = await Promise.all([
    hashPassword('same password', FAST),
    hashPassword('same password', FAST),
  ]);
  assert.notEqual(one, two);
});

test("the default cost is one of OWASP's: N=2^16, r=8, p=2 (64 MiB)", async () => {
  assert.deepEqual(OWASP_SCRYPT, { N: 65536, r: 8, p: 2 });
  const hash = await hashPassword('correct horse battery staple');
  assert.match(hash, /^scrypt\$65536\$8\$2\$/);
  assert.equal(await verifyPassword('correct horse battery staple', hash), true);
  // Hashes made with OWASP's other setting (N=2^17, p=1) still verify.
  const older = await hashPassword('correct horse battery staple', { N: 2 ** 17, r: 8, p: 1 });
  assert.equal(await verifyPassword('correct horse battery staple', older), true);
});

test('composed and decomposed forms of the same characters match', async () => {
  const hash = await hashPassword('caf\u00e9 au lait', FAST);
  assert.equal(await verifyPassword('cafe\u0301 au lait', hash), true);
});

test('a malformed or absurd hash is an error, not a wrong password', async () => {
  const good = await hashPassword('password1', FAST);
  const salt = good.split('$')[4]!;
  const digest = good.split('$')[5]!;
  for (const bad of [
    '',
    'plain text',
    'bcrypt$1024$8$1$aaaa$bbbb',
    good.replace('$8$', '$x$'),
    `scrypt$1000$8$1$${salt}$${digest}`, // N not a power of two
    `scrypt$1073741824$8$1$${salt}$${digest}`, // 128 GiB
    `scrypt$1024$8$1$${salt}$${digest}$extra`,
    `scrypt$1024$8$1$${salt}$`,
    `scrypt$1024$8$1$${salt}$AAAA`, // too short to mean anything
  ]) {
    await assert.rejects(verifyPassword('password1', bad), TypeError, bad);
  }
  await assert.rejects(hashPassword('password1', { N: 3, r: 8, p: 1 }), TypeError);
});

test('the dummy hash has the given cost and matches no password', async () => {
  assert.match(dummyHash(), /^scrypt\$65536\$8\$2\$/);
  assert.equal(await verifyPassword('', dummyHash(FAST)), false);
  assert.equal(await verifyPassword('password', dummyHash(FAST)), false);
});
