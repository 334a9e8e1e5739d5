import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import { HttpBasic } from './http-basic.js';
import { encodeBasicCredentials } from './parse-basic-credentials.js';

function request(authorization?: string | readonly string[]): RequestView {
  if (authorization === undefined) return { method: 'GET', url: '/x', headers: {} };
  const lines = typeof authorization === 'string' ? [authorization] : authorization;
  return {
    method: 'GET',
    url: '/x',
    headers: { authorization: lines[0] },
    raw: { rawHeaders: lines.flatMap((line) => ['authorization', line]) },
  };
}

const basic = (username: string, password: string): string =>
  `Basic ${encodeBasicCredentials(username, password)}`;

/** A real hook that records its calls and accepts only ann / secret. */
function recordingHook() {
  const calls: [AuthRequest, string, string][] = [];
  const hook = (req: AuthRequest, username: string, password: string): string | undefined => {
    calls.push([req, username, password]);
    return username === 'ann' && password === 'secret' ? username : undefined;
  };
  return { hook, calls };
}

describe('HttpBasic', () => {
  describe('credential state → outcome', () => {
    const rows: readonly {
      state: string;
      header?: string | readonly string[];
      outcome: string;
      hookCalls: number;
    }[] = [
      { state: 'absent', outcome: 'absent', hookCalls: 0 },
      { state: 'wrong scheme', header: 'Bearer abc', outcome: 'absent', hookCalls: 0 },
      { state: 'scheme only', header: 'Basic', outcome: 'absent', hookCalls: 0 },
      {
        state: 'tab separator',
        header: `Basic\t${encodeBasicCredentials('ann', 'secret')}`,
        outcome: 'rejected',
        hookCalls: 0,
      },
      { state: 'malformed base64', header: 'Basic !!!!', outcome: 'rejected', hookCalls: 0 },
      {
        state: 'missing colon',
        header: 'Basic YW5u' /* "ann" */,
        outcome: 'rejected',
        hookCalls: 0,
      },
      { state: 'empty username', header: basic('', 'secret'), outcome: 'rejected', hookCalls: 0 },
      {
        state: 'control character',
        header: basic('ann', 'sec\nret'),
        outcome: 'rejected',
        hookCalls: 0,
      },
      {
        state: 'too long',
        header: basic('ann', 'x'.repeat(4096)),
        outcome: 'rejected',
        hookCalls: 0,
      },
      {
        state: 'rejected by hook',
        header: basic('ann', 'wrong'),
        outcome: 'rejected',
        hookCalls: 1,
      },
      { state: 'accepted', header: basic('ann', 'secret'), outcome: 'accepted', hookCalls: 1 },
      {
        state: 'accepted, upper-case scheme',
        header: `BASIC ${encodeBasicCredentials('ann', 'secret')}`,
        outcome: 'accepted',
        hookCalls: 1,
      },
      {
        state: 'accepted, several spaces',
        header: `Basic   ${encodeBasicCredentials('ann', 'secret')}`,
        outcome: 'accepted',
        hookCalls: 1,
      },
      {
        state: 'ambiguous (two lines)',
        header: [basic('ann', 'secret'), basic('bob', 'secret')],
        outcome: 'ambiguous',
        hookCalls: 0,
      },
    ];
    for (const row of rows) {
      it(`${row.state} → ${row.outcome}, hook called ${row.hookCalls}×`, async () => {
        const { hook, calls } = recordingHook();
        const authenticator = new HttpBasic({ authenticate: hook });
        const outcome = await authenticator.verify(request(row.header));
        assert.equal(outcome.state, row.outcome);
        assert.equal(calls.length, row.hookCalls);
      });
    }
  });

  it('passes the request, username and password (split at the first colon)', async () => {
    const { hook, calls } = recordingHook();
    const authenticator = new HttpBasic({ authenticate: hook });
    const req = request(basic('ann', 'se:cr:et'));
    await authenticator.verify(req);
    assert.deepEqual(calls, [[req, 'ann', 'se:cr:et']]);
  });

  it('applies maxLength to the encoded credential', async () => {
    const { hook, calls } = recordingHook();
    const authenticator = new HttpBasic({ authenticate: hook, maxLength: 12 });
    // "ann:secret" is 10 bytes → 16 base64 characters.
    assert.equal((await authenticator.verify(request(basic('ann', 'secret')))).state, 'rejected');
    assert.equal(calls.length, 0);
    // "a:b" is 3 bytes → 4 characters.
    await authenticator.verify(request(basic('a', 'b')));
    assert.equal(calls.length, 1);
  });

  describe('the accept rule', () => {
    for (const async of [false, true]) {
      const style = async ? 'async' : 'sync';
      for (const result of [undefined, null, false] as const) {
        it(`${style} hook returning ${String(result)} rejects`, async () => {
          const authenticator = new HttpBasic({
            authenticate: () => (async ? Promise.resolve(result) : result),
          });
          assert.equal((await authenticator.verify(request(basic('a', 'b')))).state, 'rejected');
        });
      }
      for (const result of [0, '', [], {}]) {
        it(`${style} hook returning ${JSON.stringify(result)} accepts`, async () => {
          const authenticator = new HttpBasic({
            authenticate: () => (async ? Promise.resolve(result) : result),
          });
          assert.deepEqual(await authenticator.verify(request(basic('a', 'b'))), {
            state: 'accepted',
            value: result,
          });
        });
      }
    }
  });

  describe('subclass overriding authenticate', () => {
    class Users extends HttpBasic<{ name: string }> {
      readonly seen: string[] = [];
      override authenticate(
        _request: AuthRequest,
        username: string,
        password: string,
      ): Promise<{ name: string } | Nothing> {
        this.seen.push(username);
        return Promise.resolve(password === 'pw' ? { name: username } : false);
      }
    }

    it('needs no hook option and is called with the decoded parts', async () => {
      const users = new Users();
      assert.deepEqual(await users.verify(request(basic('zoë', 'pw'))), {
        state: 'accepted',
        value: { name: 'zoë' },
      });
      assert.equal((await users.verify(request(basic('zoë', 'no')))).state, 'rejected');
      assert.equal((await users.verify(request())).state, 'absent');
      assert.deepEqual(users.seen, ['zoë', 'zoë']);
    });
  });

  it('throws ConfigurationError at construction without a hook', () => {
    assert.throws(() => new HttpBasic(), { code: 'VOUCH_ERR_CONFIGURATION' });
  });

  it('challenges with the realm and charset="UTF-8", rejected or not', () => {
    const authenticator = new HttpBasic({ authenticate: () => undefined });
    assert.equal(authenticator.challenge('api'), 'Basic realm="api", charset="UTF-8"');
    assert.equal(
      authenticator.challenge('my "realm"'),
      'Basic realm="my \\"realm\\"", charset="UTF-8"',
    );
  });

  it('describes itself as an http basic scheme', () => {
    const plain = new HttpBasic({ authenticate: () => undefined });
    assert.equal(plain.schemeName, 'basicAuth');
    assert.deepEqual(plain.securityScheme, { type: 'http', scheme: 'basic' });
    assert.equal(plain.cookieBased, false);
    const described = new HttpBasic({
      authenticate: () => undefined,
      description: 'Users table',
      name: 'users',
    });
    assert.equal(described.schemeName, 'users');
    assert.deepEqual(described.securityScheme, {
      type: 'http',
      scheme: 'basic',
      description: 'Users table',
    });
  });
});
