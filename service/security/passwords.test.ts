import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { test, type TestContext } from 'node:test';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/store.js';
import {
  checkLogin,
  dummyHash,
  hashPassword,
  OWASP_SCRYPT,
  verifyPassword,
  type ScryptParameters,
} from './passwords.js';

// Cheap parameters keep the suite fast; one test below pays OWASP's real cost.
const FAST: ScryptParameters = { N: 2 ** 10, r: 8, p: 1 };

/** Counts real scrypt runs (and their N) without replacing them. */
function countScrypt(t: TestContext): number[] {
  const costs: number[] = [];
  const original = crypto.scrypt;
  const counting = ((...args: Parameters<typeof crypto.scrypt>) => {
    const options = args[3];
    costs.push(typeof options === 'object' ? (options.N ?? 0) : 0);
    (original as (...a: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt;
  crypto.scrypt = counting;
  syncBuiltinESMExports();
  t.after(() => {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  });
  return costs;
}

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

test("the default cost is OWASP's: N=2^17, r=8, p=1", async () => {
  assert.deepEqual(OWASP_SCRYPT, { N: 131072, r: 8, p: 1 });
  const hash = await hashPassword('correct horse battery staple');
  assert.match(hash, /^scrypt\$131072\$8\$1\$/);
  assert.equal(await verifyPassword('correct horse battery staple', hash), true);
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
  assert.match(dummyHash(), /^scrypt\$131072\$8\$1\$/);
  assert.equal(await verifyPassword('', dummyHash(FAST)), false);
  assert.equal(await verifyPassword('password', dummyHash(FAST)), false);
});

async function storeWithAlice(t: TestContext): Promise<Store> {
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  await store.createUser('alice', await hashPassword('wonderland', FAST), 42);
  return store;
}

test('checkLogin: the right password gives the user, without its hash', async (t) => {
  const store = await storeWithAlice(t);
  const user = await checkLogin(store, 'alice', 'wonderland', { parameters: FAST });
  assert.deepEqual(user, { id: 1, username: 'alice', createdAt: 42 });
});

test('checkLogin: a wrong password and an unknown user both fail, both after one scrypt run', async (t) => {
  const store = await storeWithAlice(t);
  const costs = countScrypt(t);
  assert.equal(await checkLogin(store, 'alice', 'looking-glass', { parameters: FAST }), undefined);
  assert.deepEqual(costs, [FAST.N]);
  assert.equal(await checkLogin(store, 'mallory', 'wonderland', { parameters: FAST }), undefined);
  assert.deepEqual(costs, [FAST.N, FAST.N]);
});

test('checkLogin: an unknown user costs OWASP scrypt by default', async (t) => {
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  const costs = countScrypt(t);
  assert.equal(await checkLogin(store, 'nobody', 'password'), undefined);
  assert.deepEqual(costs, [OWASP_SCRYPT.N]);
});

test('checkLogin: unknown user and wrong password take comparable time', async (t) => {
  const parameters: ScryptParameters = { N: 2 ** 14, r: 8, p: 1 };
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  await store.createUser('alice', await hashPassword('wonderland', parameters), 0);
  const median = async (username: string): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = process.hrtime.bigint();
      await checkLogin(store, username, 'wrong password', { parameters });
      times.push(Number(process.hrtime.bigint() - start));
    }
    return times.sort((a, b) => a - b)[2]!;
  };
  const wrong = await median('alice');
  const unknown = await median('nobody');
  // Loose on purpose (shared CI machines): skipping scrypt would make the ratio near zero.
  const ratio = unknown / wrong;
  assert.ok(ratio > 0.5 && ratio < 2, `unknown/wrong time ratio ${ratio.toFixed(2)}`);
});
