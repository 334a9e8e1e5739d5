// POST /api/token as the OAuth2 password grant (RFC 6749 §4.3) over the real service and a real
// SQLite file: the form Swagger UI's Authorize sends, its answer, and its errors (§5.2).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addUser, bearer, form, json, startService, type Service } from './helpers.js';

async function withAlice(t: Parameters<typeof startService>[0]): Promise<Service> {
  const service = await startService(t);
  await addUser(service.store, 'alice', 'wonderland');
  await service.store.grantUserScope('alice', 'admin');
  await service.store.grantUserScope('alice', 'pets:read');
  return service;
}

async function grant(service: Service, fields: Record<string, string>, asJson = false) {
  const response = await service.fetch('/api/token', asJson ? json(fields) : form(fields));
  return {
    status: response.status,
    cacheControl: response.headers.get('cache-control'),
    pragma: response.headers.get('pragma'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const ALICE = { grant_type: 'password', username: 'alice', password: 'wonderland' };

describe('POST /api/token, the OAuth2 password grant', () => {
  it('issues a Bearer token with the scopes asked for, never cached', async (t) => {
    const service = await withAlice(t);
    const answer = await grant(service, { ...ALICE, scope: 'admin', client_id: '' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, 'bearer');
    assert.equal(answer.body.scope, 'admin');
    assert.equal(typeof answer.body.expires_in, 'number');
    assert.equal(answer.cacheControl, 'no-store');
    assert.equal(answer.pragma, 'no-cache');
    const token = String(answer.body.access_token);
    const users = await service.fetch('/api/admin/users', { headers: bearer(token) });
    assert.deepEqual(await users.json(), { users: ['alice'] });
  });

  for (const asJson of [false, true]) {
    it(`answers its errors as RFC 6749 §5.2 says (${asJson ? 'JSON' : 'form'})`, async (t) => {
      const service = await withAlice(t);
      const cases: [Record<string, string>, Record<string, unknown>][] = [
        [
          { ...ALICE, password: 'nope-nope' },
          { error: 'invalid_grant', error_description: 'Incorrect username or password' },
        ],
        [
          { ...ALICE, username: 'nobody' },
          { error: 'invalid_grant', error_description: 'Incorrect username or password' },
        ],
        [
          { ...ALICE, scope: 'pets:write' },
          {
            error: 'invalid_scope',
            error_description: 'The requested scope is malformed or not granted to this user',
          },
        ],
        [{ ...ALICE, grant_type: 'client_credentials' }, { error: 'unsupported_grant_type' }],
      ];
      for (const [fields, body] of cases) {
        const answer = await grant(service, fields, asJson);
        assert.equal(answer.status, 400, JSON.stringify(fields));
        assert.deepEqual(answer.body, body, JSON.stringify(fields));
        assert.equal(answer.cacheControl, 'no-store');
      }
      const missing = await grant(service, { grant_type: 'password', username: 'alice' }, asJson);
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, 'invalid_request');
      assert.match(String(missing.body.error_description), /password/);
    });
  }

  it('keeps the plain form answering { detail }, a malformed one included', async (t) => {
    const service = await withAlice(t);
    const wrong = await grant(service, { username: 'alice', password: 'nope-nope' });
    assert.deepEqual(wrong.body, { detail: 'Incorrect username or password' });
    const missing = await grant(service, { username: 'alice' });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body), ['detail']);
    assert.match(String(missing.body.detail), /password/);
  });

  it('costs a refused token one store lookup, though two schemes read it', async (t) => {
    const service = await withAlice(t);
    const { store } = service;
    const findToken = store.findToken.bind(store);
    let lookups = 0;
    store.findToken = (...args) => {
      lookups++;
      return findToken(...args);
    };
    const refused = await service.fetch('/api/bearer', { headers: bearer('not-a-real-token') });
    assert.equal(refused.status, 401);
    assert.equal(lookups, 1);
    const token = String((await grant(service, ALICE)).body.access_token);
    const accepted = await service.fetch('/api/bearer', { headers: bearer(token) });
    assert.deepEqual(await accepted.json(), { token });
  });
});
