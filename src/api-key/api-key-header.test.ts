import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthRequest, RequestView } from '../core/request.js';
import { APIKeyHeader } from './api-key-header.js';

/** Builds a request from raw header lines, as Node would parse them. */
function request(lines: readonly [string, string][]): RequestView {
  const headers: Record<string, string> = {};
  for (const [name, value] of lines) {
    const lower = name.toLowerCase();
    // Node joins repeated custom headers with ", ".
    headers[lower] = lower in headers ? `${headers[lower] ?? ''}, ${value}` : value;
  }
  return { method: 'GET', url: '/x', headers, raw: { rawHeaders: lines.flat() } };
}

function recordingHook() {
  const calls: [AuthRequest, string][] = [];
  const hook = (req: AuthRequest, key: string): string | undefined => {
    calls.push([req, key]);
    return key === 'good' ? 'app' : undefined;
  };
  return { hook, calls };
}

describe('APIKeyHeader', () => {
  describe('credential state → outcome', () => {
    const rows: readonly {
      state: string;
      lines: [string, string][];
      outcome: string;
      hookCalls: number;
    }[] = [
      { state: 'absent', lines: [], outcome: 'absent', hookCalls: 0 },
      { state: 'other header', lines: [['X-Other', 'good']], outcome: 'absent', hookCalls: 0 },
      { state: 'empty value', lines: [['X-API-Key', '']], outcome: 'absent', hookCalls: 0 },
      {
        state: 'too long',
        lines: [['X-API-Key', 'k'.repeat(4097)]],
        outcome: 'rejected',
        hookCalls: 0,
      },
      {
        state: 'rejected by hook',
        lines: [['X-API-Key', 'bad']],
        outcome: 'rejected',
        hookCalls: 1,
      },
      { state: 'accepted', lines: [['X-API-Key', 'good']], outcome: 'accepted', hookCalls: 1 },
      {
        state: 'accepted, name in other case',
        lines: [['x-api-KEY', 'good']],
        outcome: 'accepted',
        hookCalls: 1,
      },
      {
        state: 'ambiguous (two lines)',
        lines: [
          ['X-API-Key', 'good'],
          ['x-api-key', 'good'],
        ],
        outcome: 'ambiguous',
        hookCalls: 0,
      },
    ];
    for (const row of rows) {
      it(`${row.state} → ${row.outcome}, hook called ${row.hookCalls}×`, async () => {
        const { hook, calls } = recordingHook();
        const apiKey = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: hook });
        assert.equal((await apiKey.verify(request(row.lines))).state, row.outcome);
        assert.equal(calls.length, row.hookCalls);
      });
    }
  });

  it('passes the header value as is', async () => {
    const { hook, calls } = recordingHook();
    const apiKey = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: hook });
    await apiKey.verify(request([['X-API-Key', 'a%20b c']]));
    assert.equal(calls[0]?.[1], 'a%20b c');
  });

  it('reads the header "key" by default', async () => {
    const apiKey = new APIKeyHeader({ authenticate: (_request, key) => key });
    assert.equal(apiKey.paramName, 'key');
    assert.deepEqual(await apiKey.verify(request([['Key', 'k1']])), {
      state: 'accepted',
      value: 'k1',
    });
  });

  it('is not cookie-based and documents an apiKey in a header', () => {
    const apiKey = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: () => undefined });
    assert.equal(apiKey.in, 'header');
    assert.equal(apiKey.cookieBased, false);
    assert.equal(apiKey.schemeName, 'apiKeyHeader_X-API-Key');
    assert.deepEqual(apiKey.securityScheme, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
    assert.equal(apiKey.challenge('api'), 'APIKey realm="api", in="header", name="X-API-Key"');
  });
});

describe('APIKeyHeader and APIKeyCookie names', () => {
  it('refuse a paramName no client could send', async () => {
    const { APIKeyCookie } = await import('./api-key-cookie.js');
    for (const paramName of ['X API Key', 'x:key', '']) {
      assert.throws(() => new APIKeyHeader({ paramName, authenticate: () => 1 }), {
        code: 'VOUCH_ERR_CONFIGURATION',
      });
      assert.throws(() => new APIKeyCookie({ paramName, authenticate: () => 1 }), {
        code: 'VOUCH_ERR_CONFIGURATION',
      });
    }
  });
});
