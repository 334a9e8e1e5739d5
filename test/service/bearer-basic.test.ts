// GET /api/bearer (the API-wide Bearer authenticator over tokens from POST /api/token) and
// GET /api/basic (HTTP Basic over the users table), over a real socket and a real SQLite file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digest } from '../../service/security/secrets.js';
import {
  addUser,
  basic,
  bearer,
  form,
  getToken,
  json,
  manualClock,
  startService,
  type Service,
} from './helpers.js';

const BEARER = 'Bearer realm="api"';
const INVALID_TOKEN = 'Bearer realm="api", error="invalid_token"';
const BASIC = 'Basic realm="api", charset="UTF-8"';

async function assertUnauthorized(response: Response, challenge: string): Promise<void> {
  assert.equal(response.status, 401);
  assert.equal(response.headers.get('www-authenticate'), challenge);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
}

describe('GET /api/bearer', () => {
  for (const [kind, body] of [
    ['form-encoded', form],
    ['JSON', json],
  ] as const) {
    it(`answers 200 {"token"} with a token from a ${kind} POST /api/token`, async (t) => {
      const service = await startService(t);
      await addUser(service.store, 'alice', 'wonderland');
      const issued = await service.fetch(
        '/api/token',
        body({ username: 'alice', password: 'wonderland' }),
      );
      assert.equal(issued.status, 200);
      assert.equal(issued.headers.get('cache-control'), 'no-store');
      const grant = (await issued.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(grant).sort(), [
        'access_token',
        'expires_in',
        'token',
        'token_type',
      ]);
      assert.equal(grant.access_token, grant.token);
      assert.equal(grant.token_type, 'bearer');
      assert.equal(grant.expires_in, service.config.tokenTtlSeconds);
      const token = String(grant.token);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);

      const response = await service.fetch('/api/bearer', { headers: bearer(token) });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { token });
    });
  }

  it('answers 401 with a bare Bearer challenge when no credential is sent', async (t) => {
    const service = await startService(t);
    await assertUnauthorized(await service.fetch('/api/bearer'), BEARER);
  });

  const rejected: readonly [string, (token: string) => string, string][] = [
    ['an unknown token', () => 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', INVALID_TOKEN],
    [
      'a token with one character changed',
      (token) => `Bearer ${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      INVALID_TOKEN,
    ],
    ['two words after the scheme', (token) => `Bearer ${token} b`, INVALID_TOKEN],
    ['"Bearer a b"', () => 'Bearer a b', INVALID_TOKEN],
    ['the scheme alone', () => 'Bearer', BEARER],
    ['a tab after the scheme', (token) => `Bearer\t${token}`, INVALID_TOKEN],
    ['the Basic scheme', () => basic('alice', 'wonderland').authorization!, BEARER],
    ['the token without a scheme', (token) => token, BEARER],
  ];
  for (const [name, header, challenge] of rejected) {
    it(`answers 401 for ${name}`, async (t) => {
      const service = await startService(t);
      await addUser(service.store, 'alice', 'wonderland');
      const token = await getToken(service, 'alice', 'wonderland');
      const response = await service.fetch('/api/bearer', {
        headers: { authorization: header(token) },
      });
      await assertUnauthorized(response, challenge);
    });
  }

  it('accepts the scheme word in any case', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const token = await getToken(service, 'alice', 'wonderland');
    const response = await service.fetch('/api/bearer', {
      headers: { authorization: `bEaReR   ${token}` },
    });
    assert.equal(response.status, 200);
  });

  it('refuses a token from its expiry on (issued at t, queried at t + TTL)', async (t) => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const service = await startService(t, { now: clock.now, env: { TOKEN_TTL_SECONDS: '600' } });
    await addUser(service.store, 'alice', 'wonderland');
    const token = await getToken(service, 'alice', 'wonderland');
    clock.advance(600_000 - 1);
    assert.equal((await service.fetch('/api/bearer', { headers: bearer(token) })).status, 200);
    clock.advance(1);
    await assertUnauthorized(
      await service.fetch('/api/bearer', { headers: bearer(token) }),
      INVALID_TOKEN,
    );
  });

  it('refuses a token at once after store.revokeToken, and only that token', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const revoked = await getToken(service, 'alice', 'wonderland');
    const kept = await getToken(service, 'alice', 'wonderland');
    assert.notEqual(revoked, kept);
    assert.equal((await service.fetch('/api/bearer', { headers: bearer(revoked) })).status, 200);

    assert.equal(await service.store.revokeToken(digest(revoked), Date.now()), true);
    await assertUnauthorized(
      await service.fetch('/api/bearer', { headers: bearer(revoked) }),
      INVALID_TOKEN,
    );
    assert.equal((await service.fetch('/api/bearer', { headers: bearer(kept) })).status, 200);
  });

  it('never stores the token itself, only its digest', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const token = await getToken(service, 'alice', 'wonderland');
    assert.equal(await service.store.findToken(token, Date.now()), undefined);
    assert.equal(
      (await service.store.findToken(digest(token), Date.now()))?.user.username,
      'alice',
    );
  });
});

describe('GET /api/basic', () => {
  async function withUsers(t: Parameters<typeof startService>[0]): Promise<Service> {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    await addUser(service.store, 'carol', 'pass:word:with:colons');
    return service;
  }

  it('answers 200 {"httpuser": name} for the right username and password', async (t) => {
    const service = await withUsers(t);
    const response = await service.fetch('/api/basic', { headers: basic('alice', 'wonderland') });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { httpuser: 'alice' });
  });

  it('splits at the first colon: a password containing colons works', async (t) => {
    const service = await withUsers(t);
    const response = await service.fetch('/api/basic', {
      headers: basic('carol', 'pass:word:with:colons'),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { httpuser: 'carol' });
  });

  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const rejected: readonly [string, Record<string, string>][] = [
    ['no credential', {}],
    ['a wrong password', basic('alice', 'wonderlant')],
    ['an unknown user', basic('mallory', 'wonderland')],
    ['the password of another user', basic('alice', 'pass:word:with:colons')],
    ['invalid base64', { authorization: 'Basic !!!not-base64!!!' }],
    [
      'base64 without padding',
      { authorization: `Basic ${b64('alice:wonderland').replace(/=+$/, '')}` },
    ],
    ['no colon', { authorization: `Basic ${b64('alicewonderland')}` }],
    ['an empty username', { authorization: `Basic ${b64(':wonderland')}` }],
    ['the scheme alone', { authorization: 'Basic' }],
    ['a Bearer token', bearer('AAAAAAAAAAAAAAAAAAAAAAAA')],
    ['percent-encoded credentials', basic('alice', 'wonder%6Cand')],
  ];
  for (const [name, headers] of rejected) {
    it(`answers 401 with the Basic challenge for ${name}`, async (t) => {
      const service = await withUsers(t);
      await assertUnauthorized(await service.fetch('/api/basic', { headers }), BASIC);
    });
  }
});
