import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthRequest, RequestView } from '../core/request.js';
import { APIKeyCookie } from './api-key-cookie.js';

const request = (cookie?: string): RequestView => ({
  method: 'POST',
  url: '/x',
  headers: cookie === undefined ? {} : { cookie },
});

function recordingHook() {
  const calls: [AuthRequest, string][] = [];
  const hook = (req: AuthRequest, key: string): string | undefined => {
    calls.push([req, key]);
    return key === 'good' ? 'app' : undefined;
  };
  return { hook, calls };
}

describe('APIKeyCookie', () => {
  describe('credential state → outcome', () => {
    const rows: readonly { state: string; cookie?: string; outcome: string; hookCalls: number }[] =
      [
        { state: 'no cookie header', outcome: 'absent', hookCalls: 0 },
        { state: 'other cookie', cookie: 'sessionid=good', outcome: 'absent', hookCalls: 0 },
        { state: 'empty value', cookie: 'X-API-KEY=', outcome: 'absent', hookCalls: 0 },
        { state: 'case differs', cookie: 'x-api-key=good', outcome: 'absent', hookCalls: 0 },
        {
          state: 'too long',
          cookie: `X-API-KEY=${'k'.repeat(4097)}`,
          outcome: 'rejected',
          hookCalls: 0,
        },
        { state: 'rejected by hook', cookie: 'X-API-KEY=bad', outcome: 'rejected', hookCalls: 1 },
        {
          state: 'accepted',
          cookie: 'a=1; X-API-KEY=good; b=2',
          outcome: 'accepted',
          hookCalls: 1,
        },
        {
          state: 'ambiguous',
          cookie: 'X-API-KEY=good; X-API-KEY=good',
          outcome: 'ambiguous',
          hookCalls: 0,
        },
      ];
    for (const row of rows) {
      it(`${row.state} → ${row.outcome}, hook called ${row.hookCalls}×`, async () => {
        const { hook, calls } = recordingHook();
        const apiKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: hook });
        assert.equal((await apiKey.verify(request(row.cookie))).state, row.outcome);
        assert.equal(calls.length, row.hookCalls);
      });
    }
  });

  it('binds CSRF tokens to the key it accepted, as sent', async () => {
    const apiKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: () => 'app' });
    assert.deepEqual(await apiKey.verify(request('X-API-KEY=k%2F1')), {
      state: 'accepted',
      value: 'app',
      csrfBinding: 'k%2F1',
    });
  });

  it('binds CSRF tokens to a static key it accepted', async () => {
    const apiKey = new APIKeyCookie({ paramName: 'X-API-KEY', keys: [['k1', 'app']] });
    assert.deepEqual(await apiKey.verify(request('X-API-KEY=k1')), {
      state: 'accepted',
      value: 'app',
      csrfBinding: 'k1',
    });
  });

  it('reads the key raw: quoted or percent-encoded, it is another key', async () => {
    const keys: string[] = [];
    const apiKey = new APIKeyCookie({
      paramName: 'X-API-KEY',
      authenticate: (_request, key) => {
        keys.push(key);
        return key === 'k_1' ? 'app' : undefined;
      },
    });
    for (const cookie of ['X-API-KEY="k_1"', 'X-API-KEY=k%5F1']) {
      assert.equal((await apiKey.verify(request(cookie))).state, 'rejected', cookie);
    }
    assert.deepEqual(keys, ['"k_1"', 'k%5F1']);
    const statics = new APIKeyCookie({ paramName: 'X-API-KEY', keys: [['k_1', 'app']] });
    assert.equal((await statics.verify(request('X-API-KEY=k%5F1'))).state, 'rejected');
  });

  it('reads the cookie "key" by default', async () => {
    const apiKey = new APIKeyCookie({ authenticate: (_request, key) => key });
    assert.equal(apiKey.paramName, 'key');
    assert.equal((await apiKey.verify(request('key=k1'))).state, 'accepted');
  });

  it('is cookie-based and documents an apiKey in a cookie', () => {
    const apiKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: () => undefined });
    assert.equal(apiKey.in, 'cookie');
    assert.equal(apiKey.cookieBased, true);
    assert.equal(apiKey.schemeName, 'apiKeyCookie_X-API-KEY');
    assert.deepEqual(apiKey.securityScheme, { type: 'apiKey', in: 'cookie', name: 'X-API-KEY' });
    assert.equal(apiKey.challenge('api'), 'APIKey realm="api", in="cookie", name="X-API-KEY"');
  });
});
