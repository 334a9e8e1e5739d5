// A new password, over real sockets, on two instances sharing one SQLite file, changed with the
// real CLI in its own process: the user's sessions (each a proof of the old password) end on
// both at once; its tokens, application keys and other users' sessions live on. A lock refuses
// everything of the user's, and an unlock gives it back. (On PostgreSQL and Redis, with instances
// as processes: test/service/instances.test.ts.)
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { hashGate, type HashGate } from '../../service/security/hash-gate.js';
import { hashPassword } from '../../service/security/passwords.js';
import { openStore } from '../../service/store/open-store.js';
import {
  addApplication,
  addUser,
  basic,
  bearer,
  FAST,
  form,
  getToken,
  login,
  startService,
  type Service,
} from './helpers.js';
import { cli } from './processes.js';

/** Two instances on one SQLite file, with alice and bob; `env` is what the CLI is given. */
async function twoInstances(t: TestContext) {
  const a = await startService(t);
  const b = await startService(t, { file: a.file });
  await addUser(a.store, 'alice', 'wonderland');
  await addUser(a.store, 'bob', 'bobpassword');
  return { a, b, env: { DATABASE_URL: `sqlite:${a.file}` } };
}

/** The status of a request, its body read. */
async function status(response: Promise<Response>): Promise<number> {
  const answer = await response;
  await answer.arrayBuffer();
  return answer.status;
}

const pets = (service: Service, cookie: string) =>
  status(service.fetch('/api/pets', { headers: { cookie } }));
const bearerOf = (service: Service, token: string) =>
  status(service.fetch('/api/bearer', { headers: bearer(token) }));
const keyed = (service: Service, key: string) =>
  status(service.fetch('/api/headerkey', { headers: { 'x-api-key': key } }));
const basicOf = (service: Service, password: string) =>
  status(service.fetch('/api/basic', { headers: basic('alice', password) }));

describe('a new password', () => {
  it("ends the user's sessions on every instance at once; tokens, keys and others live on", async (t) => {
    const { a, b, env } = await twoInstances(t);
    const sessions = [await login(a, 'alice', 'wonderland'), await login(b, 'alice', 'wonderland')];
    const bobs = await login(a, 'bob', 'bobpassword');
    const token = await getToken(b, 'alice', 'wonderland');
    const { key } = await addApplication(a.store, 'billing');
    // Each used on both, twice: the second answer comes from each instance's memory.
    for (const instance of [a, b, a, b]) {
      for (const session of [...sessions, bobs])
        assert.equal(await pets(instance, session.cookie), 200);
      assert.equal(await bearerOf(instance, token), 200);
      assert.equal(await keyed(instance, key), 200);
    }

    assert.equal(
      await cli(env, ['user', 'passwd', 'alice'], 'looking-glass\n'),
      'password of user alice changed; 2 sessions ended, tokens kept\n',
    );
    for (const instance of [a, b]) {
      for (const session of sessions) assert.equal(await pets(instance, session.cookie), 401);
      assert.equal(await pets(instance, bobs.cookie), 200, "bob's session lives on");
      assert.equal(await bearerOf(instance, token), 200, "alice's token lives on");
      assert.equal(await keyed(instance, key), 200);
      assert.equal(await basicOf(instance, 'wonderland'), 401);
    }
    // The new password signs in anywhere, and its session works everywhere.
    const again = await login(b, 'alice', 'looking-glass');
    for (const instance of [a, b]) assert.equal(await pets(instance, again.cookie), 200);
    assert.equal(
      await cli(env, ['user', 'passwd', 'alice'], 'looking-glass\n'),
      'password of user alice changed; 1 session ended, tokens kept\n',
    );
    assert.equal(await pets(a, again.cookie), 401, 'the same password again ends them too');
  });

  it('given while a sign-in checks the old one, leaves that sign-in without a session', async (t) => {
    // The gate runs the real check; once, another connection (as the CLI would) commits a new
    // password between the check and the start of the session.
    let meanwhile: (() => Promise<unknown>) | undefined;
    const real = hashGate();
    const gate: HashGate = {
      busy: () => real.busy(),
      run: (check) =>
        real.run(async () => {
          const checked = await check();
          const change = meanwhile;
          meanwhile = undefined;
          await change?.();
          return checked;
        }),
    };
    const service = await startService(t, { hashGate: gate });
    await addUser(service.store, 'alice', 'wonderland');
    const other = await openStore(`sqlite:${service.file}`, { credentialCache: false });
    t.after(() => other.close());
    const newHash = await hashPassword('looking-glass', FAST);
    meanwhile = () => other.setUserPassword('alice', newHash);

    const response = await service.fetch(
      '/api/auth/login',
      form({ username: 'alice', password: 'wonderland' }),
    );
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { detail: 'Incorrect username or password' });
    assert.deepEqual(response.headers.getSetCookie(), []);
    assert.equal(meanwhile, undefined, 'the password was changed during the sign-in');
    const signedIn = await login(service, 'alice', 'looking-glass');
    assert.equal(await pets(service, signedIn.cookie), 200);
  });
});

describe('a lock', () => {
  it("refuses everything of the user's on every instance at once; an unlock gives it back", async (t) => {
    const { a, b, env } = await twoInstances(t);
    const session = await login(a, 'alice', 'wonderland');
    const token = await getToken(a, 'alice', 'wonderland');
    const bobs = await login(b, 'bob', 'bobpassword');
    const uses = async (instance: Service) => [
      await pets(instance, session.cookie),
      await bearerOf(instance, token),
      await basicOf(instance, 'wonderland'),
    ];
    for (const instance of [a, b, a, b]) assert.deepEqual(await uses(instance), [200, 200, 200]);

    await cli(env, ['user', 'lock', 'alice']);
    for (const instance of [a, b]) {
      assert.deepEqual(await uses(instance), [401, 401, 401]);
      assert.equal(await pets(instance, bobs.cookie), 200);
      const signIn = await instance.fetch(
        '/api/auth/login',
        form({ username: 'alice', password: 'wonderland' }),
      );
      assert.equal(signIn.status, 400);
    }
    await cli(env, ['user', 'unlock', 'alice']);
    for (const instance of [a, b]) assert.deepEqual(await uses(instance), [200, 200, 200]);
  });
});
