import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthRequest, RequestView } from '../core/request.js';
import { APIKeyQuery } from './api-key-query.js';

const request = (url: string): RequestView => ({ method: 'GET', url, headers: {} });

function recordingHook() {
  const calls: [AuthRequest, string][] = [];
  const hook = (req: AuthRequest, key: string): { app: string } | undefined => {
    calls.push([req, key]);
    return key === 'good' ? { app: 'demo' } : undefined;
  };
  return { hook, calls };
}

describe('APIKeyQuery', () => {
  describe('credential state → outcome', () => {
    const rows: readonly { state: string; url: string; outcome: string; hookCalls: number }[] = [
      { state: 'no query', url: '/x', outcome: 'absent', hookCalls: 0 },
      { state: 'other parameter', url: '/x?key=good', outcome: 'absent', hookCalls: 0 },
      { state: 'empty value', url: '/x?api_key=', outcome: 'absent', hookCalls: 0 },
      { state: 'name only', url: '/x?api_key', outcome: 'absent', hookCalls: 0 },
      { state: 'case differs', url: '/x?API_KEY=good', outcome: 'absent', hookCalls: 0 },
      {
        state: 'too long',
        url: `/x?api_key=${'k'.repeat(4097)}`,
        outcome: 'rejected',
        hookCalls: 0,
      },
      { state: 'rejected by hook', url: '/x?api_key=bad', outcome: 'rejected', hookCalls: 1 },
      { state: 'accepted', url: '/x?api_key=good', outcome: 'accepted', hookCalls: 1 },
      {
        state: 'accepted among others',
        url: '/x?a=1&api_key=good&b=2',
        outcome: 'accepted',
        hookCalls: 1,
      },
      {
        state: 'ambiguous',
        url: '/x?api_key=good&api_key=good',
        outcome: 'ambiguous',
        hookCalls: 0,
      },
      {
        state: 'ambiguous, one empty',
        url: '/x?api_key=&api_key=good',
        outcome: 'ambiguous',
        hookCalls: 0,
      },
    ];
    for (const row of rows) {
      it(`${row.state} → ${row.outcome}, hook called ${row.hookCalls}×`, async () => {
        const { hook, calls } = recordingHook();
        const apiKey = new APIKeyQuery({ paramName: 'api_key', authenticate: hook });
        assert.equal((await apiKey.verify(request(row.url))).state, row.outcome);
        assert.equal(calls.length, row.hookCalls);
      });
    }
  });

  it('passes the decoded key and the request to the hook', async () => {
    const { hook, calls } = recordingHook();
    const apiKey = new APIKeyQuery({ paramName: 'api_key', authenticate: hook });
    const req = request('/x?api_key=a%2Bb+c%zz');
    await apiKey.verify(req);
    assert.deepEqual(calls, [[req, 'a+b c%zz']]);
  });

  it('reads the parameter "key" by default', async () => {
    const { hook } = recordingHook();
    const apiKey = new APIKeyQuery({ authenticate: hook });
    assert.equal(apiKey.paramName, 'key');
    assert.deepEqual(await apiKey.verify(request('/x?key=good')), {
      state: 'accepted',
      value: { app: 'demo' },
    });
  });

  it('is not cookie-based and documents an apiKey in the query', () => {
    const apiKey = new APIKeyQuery({ paramName: 'api_key', authenticate: () => undefined });
    assert.equal(apiKey.in, 'query');
    assert.equal(apiKey.cookieBased, false);
    assert.equal(apiKey.schemeName, 'apiKeyQuery_api_key');
    assert.deepEqual(apiKey.securityScheme, { type: 'apiKey', in: 'query', name: 'api_key' });
    assert.equal(apiKey.challenge('api'), 'APIKey realm="api", in="query", name="api_key"');
  });
});
