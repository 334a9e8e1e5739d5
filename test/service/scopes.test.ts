// Scopes over the real service and a real SQLite file: tokens from POST /api/token carry the
// scopes asked for within the user's grants, and GET /api/admin/users needs the admin scope.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addUser, basic, bearer, form, json, startService, type Service } from './helpers.js';
import { cli } from './processes.js';

const INSUFFICIENT = 'Bearer realm="api", error="insufficient_scope", scope="admin"';
const INVALID_SCOPE = {
  detail: 'The requested scope is malformed or not granted to this user',
  error: 'invalid_scope',
};

/**
 * A service (with `env` for its configuration) with alice (granted admin and pets:read) and bob
 * (granted nothing).
 */
async function withUsers(
  t: Parameters<typeof startService>[0],
  env: NodeJS.ProcessEnv = {},
): Promise<Service> {
  const service = await startService(t, { env });
  await addUser(service.store, 'bob', 'builder-1');
  await addUser(service.store, 'alice', 'wonderland');
  await service.store.grantUserScope('alice', 'admin');
  await service.store.grantUserScope('alice', 'pets:read');
  return service;
}

/** POST /api/token's status and body. */
async function issue(service: Service, fields: Record<string, string>, asJson = false) {
  const response = await service.fetch('/api/token', asJson ? json(fields) : form(fields));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function tokenFor(service: Service, fields: Record<string, string>): Promise<string> {
  const { status, body } = await issue(service, fields);
  assert.equal(status, 200, JSON.stringify(body));
  return String(body.token);
}

const listUsers = (service: Service, token?: string) =>
  service.fetch('/api/admin/users', token === undefined ? {} : { headers: bearer(token) });

describe('POST /api/token with scopes', () => {
  it('issues every scope granted when none is asked for, and says which', async (t) => {
    const service = await withUsers(t);
    const { status, body } = await issue(service, { username: 'alice', password: 'wonderland' });
    assert.equal(status, 200);
    assert.equal(body.scope, 'admin pets:read');
    // A user without grants gets the answer clients have always had: no scope field.
    const plain = await issue(service, { username: 'bob', password: 'builder-1' });
    assert.equal(plain.status, 200);
    assert.deepEqual(Object.keys(plain.body).sort(), [
      'access_token',
      'expires_in',
      'token',
      'token_type',
    ]);
  });

  for (const asJson of [false, true]) {
    it(`issues the scopes asked for, within the grants (${asJson ? 'JSON' : 'form'})`, async (t) => {
      const service = await withUsers(t);
      const alice = { username: 'alice', password: 'wonderland' };
      const narrow = await issue(service, { ...alice, scope: 'pets:read' }, asJson);
      assert.equal(narrow.status, 200);
      assert.equal(narrow.body.scope, 'pets:read');
      const empty = await issue(service, { ...alice, scope: '' }, asJson);
      assert.equal(empty.body.scope, 'admin pets:read', 'an empty scope asks for every grant');

      for (const scope of ['pets:write', 'admin pets:write', 'two  spaces', 'say"what', ' admin']) {
        const refused = await issue(service, { ...alice, scope }, asJson);
        assert.deepEqual(refused, { status: 400, body: INVALID_SCOPE }, scope);
      }
      // The password is judged before the grants: a wrong one says nothing about them.
      const wrong = await issue(
        service,
        { ...alice, password: 'nope-nope', scope: 'admin' },
        asJson,
      );
      assert.deepEqual(wrong, { status: 400, body: { detail: 'Incorrect username or password' } });
      const bob = await issue(service, { username: 'bob', password: 'builder-1', scope: 'admin' });
      assert.deepEqual(bob, { status: 400, body: INVALID_SCOPE });
    });
  }
});

describe('GET /api/admin/users (Bearer or Basic, scope admin)', () => {
  it('answers 401 without a credential', async (t) => {
    const service = await withUsers(t);
    const response = await listUsers(service);
    assert.equal(response.status, 401);
    assert.deepEqual(response.headers.get('www-authenticate')?.split(/, (?=Basic)/), [
      'Bearer realm="api"',
      'Basic realm="api", charset="UTF-8"',
    ]);
    assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
  });

  it("takes Basic: the user's grants of the moment are its scopes", async (t) => {
    const service = await withUsers(t);
    const asUser = (username: string, password: string) =>
      service.fetch('/api/admin/users', { headers: basic(username, password) });
    const alice = await asUser('alice', 'wonderland');
    assert.equal(alice.status, 200);
    assert.deepEqual(await alice.json(), { users: ['alice', 'bob'] });
    const bob = await asUser('bob', 'builder-1');
    assert.equal(bob.status, 403);
    assert.equal(bob.headers.get('www-authenticate'), null, 'Basic has no insufficient_scope');
    assert.deepEqual(await bob.json(), { detail: 'Forbidden' });
    // Granted now, bob has it at once: a password carries the grants as they stand.
    await service.store.grantUserScope('bob', 'admin');
    assert.equal((await asUser('bob', 'builder-1')).status, 200);
    await service.store.revokeUserScope('alice', 'admin');
    assert.equal((await asUser('alice', 'wonderland')).status, 403);
  });

  it('answers 403 insufficient_scope to a token without admin', async (t) => {
    const service = await withUsers(t);
    for (const token of [
      await tokenFor(service, { username: 'bob', password: 'builder-1' }),
      await tokenFor(service, { username: 'alice', password: 'wonderland', scope: 'pets:read' }),
    ]) {
      const response = await listUsers(service, token);
      assert.equal(response.status, 403);
      assert.equal(response.headers.get('www-authenticate'), INSUFFICIENT);
      assert.deepEqual(await response.json(), { detail: 'Forbidden' });
      // The same token still works where no scope is needed.
      assert.equal((await service.fetch('/api/bearer', { headers: bearer(token) })).status, 200);
    }
  });

  it('answers 200 with the usernames, sorted, to a token with admin', async (t) => {
    const service = await withUsers(t);
    const token = await tokenFor(service, { username: 'alice', password: 'wonderland' });
    const response = await listUsers(service, token);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { users: ['alice', 'bob'] });
  });

  it('stops honouring admin once withdrawn, for good, through the service', async (t) => {
    const service = await withUsers(t);
    const alice = { username: 'alice', password: 'wonderland' };
    const token = await tokenFor(service, alice);
    assert.equal((await listUsers(service, token)).status, 200);
    await service.store.revokeUserScope('alice', 'admin');
    assert.equal((await listUsers(service, token)).status, 403, 'at once');
    // Granted again, admin is for the tokens issued from now on, not for the one withdrawn from.
    await service.store.grantUserScope('alice', 'admin');
    assert.equal((await listUsers(service, token)).status, 403, 'still withdrawn from it');
    const fresh = await tokenFor(service, alice);
    assert.equal((await listUsers(service, fresh)).status, 200);
    assert.equal((await listUsers(service, token)).status, 403);
  });

  it('stops honouring admin once withdrawn, for good, through the CLI', async (t) => {
    // Every request reads the database: what the CLI committed is what the answer shows.
    const service = await withUsers(t, { CREDENTIAL_CACHE_SECONDS: '0' });
    const env = { DATABASE_URL: `sqlite:${service.file}` };
    const alice = { username: 'alice', password: 'wonderland' };
    const token = await tokenFor(service, alice);
    assert.equal((await listUsers(service, token)).status, 200);
    await cli(env, ['user', 'revoke-scope', 'alice', 'admin']);
    assert.equal((await listUsers(service, token)).status, 403, 'the withdrawal is honoured');
    assert.equal(
      await cli(env, ['user', 'grant', 'alice', 'admin']),
      'scope admin granted to user alice\n',
    );
    assert.equal((await listUsers(service, token)).status, 403, 'still withdrawn from it');
    const fresh = await tokenFor(service, alice);
    assert.equal((await listUsers(service, fresh)).status, 200, 'a new token has it');
    assert.equal((await listUsers(service, token)).status, 403);
  });

  it('honours a withdrawal made by the CLI while credentials are kept in memory', async (t) => {
    const service = await withUsers(t);
    const token = await tokenFor(service, { username: 'alice', password: 'wonderland' });
    assert.equal((await listUsers(service, token)).status, 200);
    await cli({ DATABASE_URL: `sqlite:${service.file}` }, [
      'user',
      'revoke-scope',
      'alice',
      'admin',
    ]);
    // Another connection's commit is heard through the file: within moments, never longer.
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status !== 403 && Date.now() < deadline) {
      status = (await listUsers(service, token)).status;
      if (status !== 403) await sleep(20);
    }
    assert.equal(status, 403, 'the withdrawal made by the CLI is honoured');
  });
});
