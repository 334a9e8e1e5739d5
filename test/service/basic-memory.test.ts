// HTTP Basic without a password hash on every request, over a real socket and a real SQLite
// file: a username and password verified once are recognised from memory until anything about a
// user or its grants changes; a wrong password is always checked in full, counted, and shed by
// the hash gate like any other. Every scrypt run is counted for real (test/helpers/count-scrypt).
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashGate } from '../../service/security/hash-gate.js';
import { hashPassword } from '../../service/security/passwords.js';
import { createFailureLimiter } from '../../service/security/rate-limit.js';
import { refusalDelay } from '../../service/security/refusal-delay.js';
import { countScrypt } from '../helpers/count-scrypt.js';
import { addUser, basic, FAST, startService, type Service, type StartOptions } from './helpers.js';
import { cli } from './processes.js';

/** A service with alice, granted admin, and bob; client addresses from X-Forwarded-For. */
async function withUsers(t: TestContext, options: StartOptions = {}): Promise<Service> {
  const service = await startService(t, {
    ...options,
    env: { TRUST_PROXY: 'loopback', ...options.env },
  });
  await addUser(service.store, 'alice', 'wonderland');
  await addUser(service.store, 'bob', 'bobpassword');
  await service.store.grantUserScope('alice', 'admin');
  return service;
}

/** GET `path` with Basic credentials, from `address`; the status. */
async function get(
  service: Service,
  password: string,
  { path = '/api/basic', username = 'alice', address = '192.0.2.1' } = {},
): Promise<number> {
  const response = await service.fetch(path, {
    headers: { ...basic(username, password), 'x-forwarded-for': address },
  });
  await response.arrayBuffer();
  return response.status;
}

const ADMIN = { path: '/api/admin/users' };

/**
 * Makes sure alice's `password` is remembered on the route `options` name: answered 200, then 200
 * again without a scrypt run.
 */
function rememberer(t: TestContext, service: Service) {
  const costs = countScrypt(t);
  return async (password: string, options: { path?: string } = {}) => {
    assert.equal(await get(service, password, options), 200);
    const before = costs.length;
    assert.equal(await get(service, password, options), 200);
    assert.equal(costs.length, before, 'answered from memory');
  };
}

/** The status of a request, and how many scrypt runs it made. */
async function hashes(costs: readonly unknown[], request: () => Promise<number>) {
  const before = costs.length;
  const status = await request();
  return { status, hashes: costs.length - before };
}

describe('HTTP Basic remembered', () => {
  it('after one check, the same username and password are answered without a hash', async (t) => {
    const service = await withUsers(t);
    const costs = countScrypt(t);
    assert.deepEqual(await hashes(costs, () => get(service, 'wonderland')), {
      status: 200,
      hashes: 1,
    });
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(await hashes(costs, () => get(service, 'wonderland')), {
        status: 200,
        hashes: 0,
      });
    }
    const answer = await service.fetch('/api/basic', { headers: basic('alice', 'wonderland') });
    assert.deepEqual(await answer.json(), { httpuser: 'alice' });
    // The user's grants come along: admin, remembered with the login.
    assert.deepEqual(await hashes(costs, () => get(service, 'wonderland', ADMIN)), {
      status: 200,
      hashes: 0,
    });
    // Another user is checked once, then remembered as well.
    assert.equal(
      (await hashes(costs, () => get(service, 'bobpassword', { username: 'bob' }))).hashes,
      1,
    );
    assert.equal(
      (await hashes(costs, () => get(service, 'bobpassword', { username: 'bob' }))).hashes,
      0,
    );
  });

  it('a wrong password is never answered from memory, even right after the right one', async (t) => {
    const service = await withUsers(t);
    const costs = countScrypt(t);
    assert.equal(await get(service, 'wonderland'), 200);
    for (const wrong of ['wonderlant', 'wonderland ', 'Wonderland', 'bobpassword', '']) {
      assert.deepEqual(
        await hashes(costs, () => get(service, wrong)),
        { status: 401, hashes: 1 },
        wrong,
      );
      assert.deepEqual(await hashes(costs, () => get(service, 'wonderland')), {
        status: 200,
        hashes: 0,
      });
    }
    // Nor is the right password under another username, nor an unknown user.
    assert.deepEqual(await hashes(costs, () => get(service, 'wonderland', { username: 'bob' })), {
      status: 401,
      hashes: 1,
    });
    assert.deepEqual(
      await hashes(costs, () => get(service, 'wonderland', { username: 'mallory' })),
      {
        status: 401,
        hashes: 1,
      },
    );
  });

  it('wrong passwords count toward the limits, which hold a remembered password back too', async (t) => {
    const limiter = createFailureLimiter({
      perUsernameAndAddress: { attempts: 3, windowSeconds: 60 },
    });
    const service = await withUsers(t, { limiter, refusalDelay: refusalDelay({ ms: 0 }) });
    const attacker = { address: '203.0.113.9' };
    assert.equal(await get(service, 'wonderland', attacker), 200, 'remembered from there');
    const costs = countScrypt(t);
    for (let i = 0; i < 3; i++) assert.equal(await get(service, `guess-${i}`, attacker), 401);
    assert.equal(costs.length, 3, 'each wrong password paid its hash');
    // Locked out from there: a guess and the right password get the same answer, no hash.
    assert.equal(await get(service, 'guess-3', attacker), 429);
    assert.deepEqual(await hashes(costs, () => get(service, 'wonderland', attacker)), {
      status: 429,
      hashes: 0,
    });
    // The owner elsewhere is answered from memory all along.
    assert.deepEqual(await hashes(costs, () => get(service, 'wonderland')), {
      status: 200,
      hashes: 0,
    });
  });

  it('the hash gate sheds wrong passwords while remembered ones are answered', async (t) => {
    // The only password check is taken for the whole test: a check that must hash is refused 503.
    const gate = hashGate({ concurrency: 1, queue: 0 });
    const service = await withUsers(t, { hashGate: gate, refusalDelay: refusalDelay({ ms: 0 }) });
    assert.equal(await get(service, 'wonderland'), 200);
    const taken = gate.run(() => sleep(1500));
    t.after(() => taken);
    const costs = countScrypt(t);
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        get(service, i % 2 === 0 ? 'wonderland' : `guess-${i}`, { address: `10.7.${i}.1` }),
      ),
    );
    assert.deepEqual(
      answers,
      Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 200 : 503)),
    );
    assert.equal(costs.length, 0);
  });

  it('parallel requests with one password wait for one check: one hash, no refusal', async (t) => {
    // One check at a time and none waiting: without waiting for each other, all but one are shed.
    const gate = hashGate({ concurrency: 1, queue: 0 });
    const service = await withUsers(t, { hashGate: gate, refusalDelay: refusalDelay({ ms: 0 }) });
    const costs = countScrypt(t);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => get(service, 'wonderland', { address: `10.6.${i}.1` })),
    );
    assert.deepEqual(answers, Array<number>(16).fill(200));
    assert.equal(costs.length, 1);
  });

  it('the same wrong password sent in parallel pays its hash and counts, each time', async (t) => {
    const limiter = createFailureLimiter({
      perUsernameAndAddress: { attempts: 3, windowSeconds: 60 },
    });
    // Room for all four at once: a gate shedding one on a busy host (503) is not what is proved.
    const gate = hashGate({ concurrency: 4 });
    const service = await withUsers(t, {
      limiter,
      hashGate: gate,
      refusalDelay: refusalDelay({ ms: 0 }),
    });
    const costs = countScrypt(t);
    const answers = await Promise.all(Array.from({ length: 4 }, () => get(service, 'guess')));
    assert.deepEqual(answers.sort(), [401, 401, 401, 429]);
    assert.equal(costs.length, 3);
  });

  it('a password changed, a grant withdrawn, a user locked or removed: forgotten at once', async (t) => {
    const service = await withUsers(t);
    const { store } = service;
    const remembered = rememberer(t, service);

    await remembered('wonderland');
    await store.setUserPassword('alice', await hashPassword('looking-glass', FAST));
    assert.equal(await get(service, 'wonderland'), 401);

    await remembered('looking-glass', ADMIN);
    await store.revokeUserScope('alice', 'admin');
    assert.equal(await get(service, 'looking-glass', ADMIN), 403);
    assert.equal(await get(service, 'looking-glass'), 200, 'still alice, without admin');

    await remembered('looking-glass');
    await store.lockUser('alice', Date.now());
    assert.equal(await get(service, 'looking-glass'), 401);
    await store.unlockUser('alice');

    await remembered('looking-glass');
    await store.removeUser('alice');
    assert.equal(await get(service, 'looking-glass'), 401);
  });

  it('a change made by the CLI, in its own process, is forgotten by the next request', async (t) => {
    const service = await withUsers(t);
    const env = { DATABASE_URL: `sqlite:${service.file}` };
    const remembered = rememberer(t, service);

    await remembered('wonderland');
    await cli(env, ['user', 'passwd', 'alice'], 'looking-glass\n');
    assert.equal(await get(service, 'wonderland'), 401);

    await remembered('looking-glass', ADMIN);
    await cli(env, ['user', 'revoke-scope', 'alice', 'admin']);
    assert.equal(await get(service, 'looking-glass', ADMIN), 403);

    await remembered('looking-glass');
    await cli(env, ['user', 'lock', 'alice']);
    assert.equal(await get(service, 'looking-glass'), 401);
    await cli(env, ['user', 'unlock', 'alice']);

    await remembered('looking-glass');
    await cli(env, ['user', 'remove', 'alice']);
    assert.equal(await get(service, 'looking-glass'), 401);
  });

  it('nothing is remembered longer than CREDENTIAL_CACHE_SECONDS, nor with it 0', async (t) => {
    const service = await withUsers(t, { env: { CREDENTIAL_CACHE_SECONDS: '1' } });
    const costs = countScrypt(t);
    assert.equal(await get(service, 'wonderland'), 200);
    assert.equal(await get(service, 'wonderland'), 200);
    assert.equal(costs.length, 1);
    await sleep(1100);
    assert.equal(await get(service, 'wonderland'), 200);
    assert.equal(costs.length, 2, 'checked again once a second has passed');

    const never = await withUsers(t, { env: { CREDENTIAL_CACHE_SECONDS: '0' } });
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await hashes(costs, () => get(never, 'wonderland')), {
        status: 200,
        hashes: 1,
      });
    }
  });
});
