import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import type { Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import { HttpBearer } from './http-bearer.js';

function request(authorization?: string | readonly string[]): RequestView {
  if (authorization === undefined)
    return { method: 'GET', url: '/x', headers: {}, raw: { rawHeaders: [] } };
  const lines = typeof authorization === 'string' ? [authorization] : authorization;
  return {
    method: 'GET',
    url: '/x',
    headers: { authorization: lines[0] },
    raw: { rawHeaders: lines.flatMap((line) => ['Authorization', line]) },
  };
}

/** A real hook that records its calls and accepts only the token "good". */
function recordingHook() {
  const calls: [AuthRequest, string][] = [];
  const hook = (req: AuthRequest, token: string): { user: string } | undefined => {
    calls.push([req, token]);
    return token === 'good' ? { user: 'ann' } : undefined;
  };
  return { hook, calls };
}

describe('HttpBearer', () => {
  describe('credential state → outcome', () => {
    const rows: readonly {
      state: string;
      header?: string | readonly string[];
      outcome: string;
      hookCalls: number;
    }[] = [
      { state: 'absent', outcome: 'absent', hookCalls: 0 },
      { state: 'empty header', header: '', outcome: 'absent', hookCalls: 0 },
      { state: 'wrong scheme', header: 'Basic dXNlcjpwYXNz', outcome: 'absent', hookCalls: 0 },
      { state: 'scheme only', header: 'Bearer', outcome: 'absent', hookCalls: 0 },
      { state: 'scheme and spaces', header: 'Bearer   ', outcome: 'absent', hookCalls: 0 },
      { state: 'tab separator', header: 'Bearer\tgood', outcome: 'rejected', hookCalls: 0 },
      { state: 'malformed (space)', header: 'Bearer go od', outcome: 'rejected', hookCalls: 0 },
      { state: 'malformed (= inside)', header: 'Bearer go=od', outcome: 'rejected', hookCalls: 0 },
      { state: 'malformed (quote)', header: 'Bearer "good"', outcome: 'rejected', hookCalls: 0 },
      {
        state: 'too long',
        header: `Bearer ${'a'.repeat(4097)}`,
        outcome: 'rejected',
        hookCalls: 0,
      },
      { state: 'rejected by hook', header: 'Bearer bad', outcome: 'rejected', hookCalls: 1 },
      { state: 'accepted', header: 'Bearer good', outcome: 'accepted', hookCalls: 1 },
      {
        state: 'accepted, lower-case scheme',
        header: 'bearer good',
        outcome: 'accepted',
        hookCalls: 1,
      },
      {
        state: 'accepted, upper-case scheme',
        header: 'BEARER good',
        outcome: 'accepted',
        hookCalls: 1,
      },
      {
        state: 'accepted, several spaces',
        header: 'Bearer   good',
        outcome: 'accepted',
        hookCalls: 1,
      },
      {
        state: 'ambiguous (two lines)',
        header: ['Bearer good', 'Bearer good'],
        outcome: 'ambiguous',
        hookCalls: 0,
      },
      {
        state: 'ambiguous (other scheme on the second line)',
        header: ['Bearer good', 'Basic dXNlcjpwYXNz'],
        outcome: 'ambiguous',
        hookCalls: 0,
      },
    ];
    for (const row of rows) {
      it(`${row.state} → ${row.outcome}, hook called ${row.hookCalls}×`, async () => {
        const { hook, calls } = recordingHook();
        const bearer = new HttpBearer({ authenticate: hook });
        const outcome = await bearer.verify(request(row.header));
        assert.equal(outcome.state, row.outcome);
        assert.equal(calls.length, row.hookCalls);
      });
    }
  });

  it('passes the request and the token to the hook; the value becomes auth', async () => {
    const { hook, calls } = recordingHook();
    const bearer = new HttpBearer({ authenticate: hook });
    const req = request('Bearer good');
    assert.deepEqual(await bearer.verify(req), { state: 'accepted', value: { user: 'ann' } });
    assert.deepEqual(calls, [[req, 'good']]);
  });

  it('passes a token with b64token padding as is', async () => {
    const tokens: string[] = [];
    const bearer = new HttpBearer({ authenticate: (_req, token) => tokens.push(token) });
    await bearer.verify(request('Bearer mF_9.B5f-4.1JqM/+~=='));
    assert.deepEqual(tokens, ['mF_9.B5f-4.1JqM/+~==']);
  });

  it('accepts a token exactly maxLength long and refuses one longer', async () => {
    const { hook, calls } = recordingHook();
    const bearer = new HttpBearer({ authenticate: hook, maxLength: 8 });
    assert.equal((await bearer.verify(request('Bearer abcdefgh'))).state, 'rejected');
    assert.equal(calls.length, 1);
    assert.equal((await bearer.verify(request('Bearer abcdefghi'))).state, 'rejected');
    assert.equal(calls.length, 1);
  });

  it('defaults maxLength to 4096', async () => {
    const { hook, calls } = recordingHook();
    const bearer = new HttpBearer({ authenticate: hook });
    await bearer.verify(request(`Bearer ${'a'.repeat(4096)}`));
    assert.equal(calls.length, 1);
  });

  it('treats an array header value of one line as that line', async () => {
    const { hook } = recordingHook();
    const bearer = new HttpBearer({ authenticate: hook });
    const req: RequestView = {
      method: 'GET',
      url: '/',
      headers: { authorization: ['Bearer good'] },
    };
    assert.equal((await bearer.verify(req)).state, 'accepted');
  });

  describe('the accept rule', () => {
    const rejecting: readonly unknown[] = [undefined, null, false];
    const accepting: readonly unknown[] = [0, '', [], {}, true, 'x', Number.NaN];
    for (const async of [false, true]) {
      const style = async ? 'async' : 'sync';
      for (const result of rejecting) {
        it(`${style} hook returning ${String(result)} rejects`, async () => {
          const bearer = new HttpBearer({
            authenticate: () => (async ? Promise.resolve(result) : result),
          });
          assert.deepEqual(await bearer.verify(request('Bearer t')), { state: 'rejected' });
        });
      }
      for (const result of accepting) {
        it(`${style} hook returning ${JSON.stringify(result)} accepts with that value`, async () => {
          const bearer = new HttpBearer({
            authenticate: () => (async ? Promise.resolve(result) : result),
          });
          const outcome = await bearer.verify(request('Bearer t'));
          assert.equal(outcome.state, 'accepted');
          assert.equal(outcome.value, result);
        });
      }
    }
  });

  it('lets errors thrown by the hook propagate, sync or async', async () => {
    const boom = new Error('boom');
    const sync = new HttpBearer({
      authenticate: () => {
        throw boom;
      },
    });
    const async = new HttpBearer({ authenticate: () => Promise.reject(boom) });
    // A synchronous hook's error is thrown synchronously, an async one's rejects: both propagate.
    assert.throws(() => sync.verify(request('Bearer t')), boom);
    await assert.rejects(async () => async.verify(request('Bearer t')), boom);
  });

  describe('subclass overriding authenticate', () => {
    class TokenBearer extends HttpBearer<string> {
      calls = 0;
      override authenticate(_request: AuthRequest, token: string): string | Nothing {
        this.calls++;
        return token === 'good' ? `user-of-${token}` : undefined;
      }
    }
    class AsyncTokenBearer extends HttpBearer<string> {
      override authenticate(_request: AuthRequest, token: string): Promise<string | Nothing> {
        return Promise.resolve(token === 'good' ? 'async-user' : null);
      }
    }

    it('needs no hook option', async () => {
      const bearer = new TokenBearer();
      assert.deepEqual(await bearer.verify(request('Bearer good')), {
        state: 'accepted',
        value: 'user-of-good',
      });
      assert.deepEqual(await bearer.verify(request('Bearer bad')), { state: 'rejected' });
      assert.equal(bearer.calls, 2);
    });

    it('is never called for an absent credential', async () => {
      const bearer = new TokenBearer();
      await bearer.verify(request());
      await bearer.verify(request('Basic abc'));
      assert.equal(bearer.calls, 0);
    });

    it('may be async', async () => {
      const bearer = new AsyncTokenBearer();
      assert.deepEqual(await bearer.verify(request('Bearer good')), {
        state: 'accepted',
        value: 'async-user',
      });
      assert.deepEqual(await bearer.verify(request('Bearer bad')), { state: 'rejected' });
    });
  });

  it('throws ConfigurationError at construction without a hook or tokens', () => {
    assert.throws(
      () => new HttpBearer(),
      (error: unknown) =>
        error instanceof ConfigurationError && error.code === 'VOUCH_ERR_CONFIGURATION',
    );
    assert.throws(() => new HttpBearer({}), { code: 'VOUCH_ERR_CONFIGURATION' });
  });

  describe('static tokens', () => {
    const ann = { user: 'ann' };
    const bob = { user: 'bob' };
    const tokens = new Map([
      ['good', ann],
      ['mF_9.B5f-4.1JqM/+~==', bob],
    ]);

    // The table of the hook above, judged by the tokens instead: the same outcome on every row.
    const rows: readonly { header?: string | readonly string[]; outcome: string }[] = [
      { outcome: 'absent' },
      { header: '', outcome: 'absent' },
      { header: 'Basic dXNlcjpwYXNz', outcome: 'absent' },
      { header: 'Bearer', outcome: 'absent' },
      { header: 'Bearer   ', outcome: 'absent' },
      { header: 'Bearer\tgood', outcome: 'rejected' },
      { header: 'Bearer go od', outcome: 'rejected' },
      { header: 'Bearer go=od', outcome: 'rejected' },
      { header: 'Bearer "good"', outcome: 'rejected' },
      { header: `Bearer ${'a'.repeat(4097)}`, outcome: 'rejected' },
      { header: 'Bearer bad', outcome: 'rejected' },
      { header: 'Bearer goo', outcome: 'rejected' },
      { header: 'Bearer goodgood', outcome: 'rejected' },
      { header: 'Bearer good ', outcome: 'rejected' },
      { header: 'Bearer good', outcome: 'accepted' },
      { header: 'bearer good', outcome: 'accepted' },
      { header: 'BEARER good', outcome: 'accepted' },
      { header: 'Bearer   good', outcome: 'accepted' },
      { header: 'Bearer mF_9.B5f-4.1JqM/+~==', outcome: 'accepted' },
      { header: ['Bearer good', 'Bearer good'], outcome: 'ambiguous' },
      { header: ['Bearer good', 'Basic dXNlcjpwYXNz'], outcome: 'ambiguous' },
    ];
    for (const row of rows) {
      it(`${row.header === undefined ? 'no header' : JSON.stringify(row.header)} → ${row.outcome}`, async () => {
        const bearer = new HttpBearer({ tokens });
        assert.equal((await bearer.verify(request(row.header))).state, row.outcome);
      });
    }

    it('accepts each token as its own value, synchronously, whatever the spelling', () => {
      const bearer = new HttpBearer({ tokens });
      assert.deepEqual(bearer.verify(request('Bearer good')), { state: 'accepted', value: ann });
      assert.deepEqual(bearer.verify(request('bearer  good')), { state: 'accepted', value: ann });
      const second = bearer.verify(request('Bearer mF_9.B5f-4.1JqM/+~=='));
      assert.deepEqual(second, { state: 'accepted', value: bob });
      assert.equal((second as { value: unknown }).value, bob);
    });

    it('takes tokens from any iterable of pairs, read once', async () => {
      const pairs: [string, string][] = [['t1', 'one']];
      const bearer = new HttpBearer({ tokens: pairs });
      pairs.push(['t2', 'two']);
      assert.deepEqual(await bearer.verify(request('Bearer t1')), {
        state: 'accepted',
        value: 'one',
      });
      assert.equal((await bearer.verify(request('Bearer t2'))).state, 'rejected');
    });

    it('answers authenticate() from the tokens too', async () => {
      const bearer = new HttpBearer({ tokens });
      const req = request('Bearer good') as AuthRequest;
      assert.equal(await bearer.authenticate(req, 'good'), ann);
      assert.equal(await bearer.authenticate(req, 'goodx'), undefined);
    });

    it('accepts a token of exactly maxLength', async () => {
      const bearer = new HttpBearer({ tokens: [['abcdefgh', 1]], maxLength: 8 });
      assert.equal((await bearer.verify(request('Bearer abcdefgh'))).state, 'accepted');
    });

    const misconfigured: readonly [string, () => unknown][] = [
      ['no token', () => new HttpBearer({ tokens: [] })],
      ['an empty token', () => new HttpBearer({ tokens: [['', 1]] })],
      ['a token that is not a string', () => new HttpBearer({ tokens: [[42, 1]] as never })],
      ['a token that is not a b64token', () => new HttpBearer({ tokens: [['a b', 1]] })],
      [
        'a token longer than maxLength',
        () => new HttpBearer({ tokens: [['abc', 1]], maxLength: 2 }),
      ],
      [
        'a token given twice',
        () =>
          new HttpBearer({
            tokens: [
              ['t', 1],
              ['t', 2],
            ],
          }),
      ],
      ['a value that would reject', () => new HttpBearer({ tokens: [['t', undefined]] })],
      ['false as the value', () => new HttpBearer({ tokens: [['t', false]] })],
      ['null as the value', () => new HttpBearer({ tokens: [['t', null]] })],
      ['tokens and a hook', () => new HttpBearer({ tokens: [['t', 1]], authenticate: () => 1 })],
      [
        'tokens and an authenticate override',
        () =>
          new (class extends HttpBearer<number> {
            override authenticate(): number {
              return 1;
            }
          })({ tokens: [['t', 1]] }),
      ],
    ];
    for (const [what, make] of misconfigured) {
      it(`throws ConfigurationError at construction for ${what}`, () => {
        assert.throws(make, { code: 'VOUCH_ERR_CONFIGURATION' });
      });
    }

    it('never puts a token in a configuration error', () => {
      const secret = 'sekr1t-token-value';
      for (const tokens of [
        [
          [secret, 1],
          [secret, 2],
        ],
        [[secret, undefined]],
        [[`${secret} x`, 1]],
      ] as const) {
        assert.throws(
          () => new HttpBearer({ tokens }),
          (error: unknown) =>
            error instanceof ConfigurationError &&
            !error.message.includes('sekr1t') &&
            /HttpBearer tokens: the secret at position \d/.test(error.message),
        );
      }
    });
  });

  describe('challenge', () => {
    const bearer = new HttpBearer({ authenticate: () => undefined });
    it('names the realm', () => {
      assert.equal(bearer.challenge('api', false), 'Bearer realm="api"');
    });
    it('adds error="invalid_token" when a token was rejected', () => {
      assert.equal(bearer.challenge('api', true), 'Bearer realm="api", error="invalid_token"');
    });
    it('escapes the realm as a quoted-string', () => {
      assert.equal(bearer.challenge('a "b" \\c', false), 'Bearer realm="a \\"b\\" \\\\c"');
    });
  });

  describe('self-description', () => {
    it('documents an http bearer scheme named bearerAuth by default', () => {
      const bearer = new HttpBearer({ authenticate: () => undefined });
      assert.equal(bearer.schemeName, 'bearerAuth');
      assert.deepEqual(bearer.securityScheme, { type: 'http', scheme: 'bearer' });
      assert.equal(bearer.cookieBased, false);
      assert.equal(bearer.realm, undefined);
    });

    it('documents bearerFormat and description, and derives the name from the format', () => {
      const bearer = new HttpBearer({
        authenticate: () => undefined,
        bearerFormat: 'JWT',
        description: 'Access token',
        realm: 'inner',
      });
      assert.equal(bearer.schemeName, 'bearerAuth_JWT');
      assert.deepEqual(bearer.securityScheme, {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Access token',
      });
      assert.equal(bearer.realm, 'inner');
    });

    it('keeps a derived name a valid OpenAPI component name', () => {
      const bearer = new HttpBearer({ authenticate: () => undefined, bearerFormat: 'JWT (RS256)' });
      assert.match(bearer.schemeName, /^[A-Za-z0-9._-]+$/);
    });

    it('uses an explicit name', () => {
      const bearer = new HttpBearer({ authenticate: () => undefined, name: 'tokens' });
      assert.equal(bearer.schemeName, 'tokens');
    });
  });
});
