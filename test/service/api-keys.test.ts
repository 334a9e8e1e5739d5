// The API-key endpoints: /api/apikey (query api_key), /api/headerkey (header X-API-Key),
// /api/cookiekey (cookie X-API-KEY) and /api/multiple (query key, then header key), over
// applications whose real keys are stored as digests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newApiKey } from '../../service/security/secrets.js';
import { addApplication, bearer, startService } from './helpers.js';

/** How each endpoint takes its key. */
interface KeyEndpoint {
  readonly path: string;
  readonly challenge: string;
  readonly send: (key: string) => { path: string; headers: Record<string, string> };
}

const endpoints: readonly KeyEndpoint[] = [
  {
    path: '/api/apikey',
    challenge: 'APIKey realm="api", in="query", name="api_key"',
    send: (key) => ({ path: `/api/apikey?api_key=${encodeURIComponent(key)}`, headers: {} }),
  },
  {
    path: '/api/headerkey',
    challenge: 'APIKey realm="api", in="header", name="X-API-Key"',
    send: (key) => ({ path: '/api/headerkey', headers: { 'x-api-key': key } }),
  },
  {
    path: '/api/cookiekey',
    challenge: 'APIKey realm="api", in="cookie", name="X-API-KEY"',
    send: (key) => ({ path: '/api/cookiekey', headers: { cookie: `X-API-KEY=${key}` } }),
  },
];

for (const endpoint of endpoints) {
  describe(`GET ${endpoint.path}`, () => {
    it("answers text containing the application's name, Cache-Control private", async (t) => {
      const service = await startService(t);
      const { key } = await addApplication(service.store, 'Billing service');
      await addApplication(service.store, 'Other application');
      const { path, headers } = endpoint.send(key);
      const response = await service.fetch(path, { headers });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'private');
      const text = await response.text();
      assert.match(text, /Billing service/);
      assert.doesNotMatch(text, /Other application/);
    });

    const rejected: readonly [string, () => { path: string; headers: Record<string, string> }][] = [
      ['no key', () => ({ path: endpoint.path, headers: {} })],
      ['an unknown key with the vk_ prefix', () => endpoint.send(newApiKey().key)],
      ['a key without the vk_ prefix', () => endpoint.send('not-a-key')],
      ['a Bearer token instead', () => ({ path: endpoint.path, headers: bearer('vk_abc') })],
    ];
    for (const [name, request] of rejected) {
      it(`answers 401 with the APIKey challenge for ${name}`, async (t) => {
        const service = await startService(t);
        await addApplication(service.store, 'Billing service');
        const { path, headers } = request();
        const response = await service.fetch(path, { headers });
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('www-authenticate'), endpoint.challenge);
        assert.equal(response.headers.get('cache-control'), null);
        assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
      });
    }

    it('stops accepting a key at once when store.revokeApplication revokes it', async (t) => {
      const service = await startService(t);
      const revoked = await addApplication(service.store, 'Revoked app');
      const kept = await addApplication(service.store, 'Kept app');
      const call = (key: string) => {
        const { path, headers } = endpoint.send(key);
        return service.fetch(path, { headers });
      };
      assert.equal((await call(revoked.key)).status, 200);
      assert.equal(await service.store.revokeApplication(revoked.record.id, Date.now()), true);
      const after = await call(revoked.key);
      assert.equal(after.status, 401);
      assert.equal(after.headers.get('www-authenticate'), endpoint.challenge);
      assert.match(await (await call(kept.key)).text(), /Kept app/);
    });
  });
}

describe('ambiguous API keys', () => {
  it('?api_key=a&api_key=b answers 400 {"detail":"Bad Request"}', async (t) => {
    const service = await startService(t);
    const { key } = await addApplication(service.store, 'Billing service');
    for (const query of [`api_key=${key}&api_key=b`, `api_key=a&api_key=${key}`]) {
      const response = await service.fetch(`/api/apikey?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(await response.json(), { detail: 'Bad Request' });
    }
  });

  it('?key=a&key=b on /api/multiple answers 400 too', async (t) => {
    const service = await startService(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const response = await service.fetch(`/api/multiple?key=${key}&key=${key}`);
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { detail: 'Bad Request' });
  });
});

describe('GET /api/multiple', () => {
  const BOTH =
    'APIKey realm="api", in="query", name="key", APIKey realm="api", in="header", name="key"';

  it('accepts the key in ?key=', async (t) => {
    const service = await startService(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const response = await service.fetch(`/api/multiple?key=${key}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'private');
    assert.match(await response.text(), /Billing service/);
  });

  it('accepts the key in the header key:', async (t) => {
    const service = await startService(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const response = await service.fetch('/api/multiple', { headers: { key } });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Billing service/);
  });

  it('falls through to the header when the query key is wrong', async (t) => {
    const service = await startService(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const response = await service.fetch('/api/multiple?key=vk_wrong', { headers: { key } });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Billing service/);
  });

  const refused: readonly [string, (key: string) => { path: string; init: RequestInit }][] = [
    ['no key', () => ({ path: '/api/multiple', init: {} })],
    ['?api_key=', (key) => ({ path: `/api/multiple?api_key=${key}`, init: {} })],
    ['X-API-Key', (key) => ({ path: '/api/multiple', init: { headers: { 'x-api-key': key } } })],
    [
      'an unknown key in both places',
      () => ({
        path: `/api/multiple?key=${newApiKey().key}`,
        init: { headers: { key: newApiKey().key } },
      }),
    ],
  ];
  for (const [name, request] of refused) {
    it(`answers 401 with both challenges, in order, for ${name}`, async (t) => {
      const service = await startService(t);
      const { key } = await addApplication(service.store, 'Billing service');
      const { path, init } = request(key);
      const response = await service.fetch(path, init);
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), BOTH);
      assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
    });
  }
});
