import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { countScrypt } from '../../test/helpers/count-scrypt.js';
import { hashPassword, OWASP_SCRYPT, type ScryptParameters } from '../security/passwords.js';
import { openSqliteStore } from '../store/sqlite/open-sqlite-store.js';
import type { Store } from '../store/store.js';
import { checkLogin } from './check-login.js';

// Cheap parameters keep the suite fast.
const FAST: ScryptParameters = { N: 2 ** 10, r: 8, p: 1 };

async function storeWithAlice(t: TestContext): Promise<Store> {
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  await store.createUser('alice', await hashPassword('wonderland', FAST), 42);
  return store;
}

test('checkLogin: the right password gives the user, and apart from it the hash it matched', async (t) => {
  const store = await storeWithAlice(t);
  const checked = await checkLogin(store, 'alice', 'wonderland', { parameters: FAST });
  assert.deepEqual(checked, {
    user: { id: 1, username: 'alice', createdAt: 42 },
    passwordHash: (await store.findUserCredentials('alice'))?.passwordHash,
  });
});

test('checkLogin: a wrong password and an unknown user both fail, both after one scrypt run', async (t) => {
  const store = await storeWithAlice(t);
  const costs = countScrypt(t);
  assert.equal(await checkLogin(store, 'alice', 'looking-glass', { parameters: FAST }), undefined);
  assert.deepEqual(
    costs.map((cost) => cost.N),
    [FAST.N],
  );
  assert.equal(await checkLogin(store, 'mallory', 'wonderland', { parameters: FAST }), undefined);
  assert.equal(costs.length, 2);
  // The same work, so the two failures take the same time: cost, block size, parallelism, salt
  // and key lengths all alike. (Timing them instead would prove less, and flakily.)
  assert.deepEqual(costs[1], costs[0]);
});

test('checkLogin: an unknown user costs OWASP scrypt by default', async (t) => {
  const store = openSqliteStore(':memory:');
  t.after(() => store.close());
  const costs = countScrypt(t);
  assert.equal(await checkLogin(store, 'nobody', 'password'), undefined);
  assert.deepEqual(
    costs.map((cost) => cost.N),
    [OWASP_SCRYPT.N],
  );
});

test('checkLogin: a locked user is refused, its password right or wrong, after one scrypt run', async (t) => {
  const store = await storeWithAlice(t);
  await store.lockUser('alice', 43);
  const costs = countScrypt(t);
  assert.equal(await checkLogin(store, 'alice', 'wonderland', { parameters: FAST }), undefined);
  assert.equal(await checkLogin(store, 'alice', 'looking-glass', { parameters: FAST }), undefined);
  assert.deepEqual(
    costs.map((cost) => cost.N),
    [FAST.N, FAST.N],
  );
  await store.unlockUser('alice');
  assert.equal((await checkLogin(store, 'alice', 'wonderland'))?.user.username, 'alice');
});
