import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FunctionAuthenticator, authFunction } from './function-authenticator.js';
import type { RequestView } from './request.js';

const request: RequestView = { method: 'GET', url: '/x', headers: { 'x-ip': '127.0.0.1' } };

describe('FunctionAuthenticator', () => {
  it('passes the request to the function; its value becomes auth', async () => {
    const seen: unknown[] = [];
    const auth = authFunction((req) => {
      seen.push(req);
      return (req as RequestView).headers['x-ip'];
    });
    assert.deepEqual(await auth.verify(request), { state: 'accepted', value: '127.0.0.1' });
    assert.deepEqual(seen, [request]);
  });

  describe('the accept rule', () => {
    for (const wrap of ['sync', 'async'] as const) {
      const make = (value: unknown) =>
        new FunctionAuthenticator(() => (wrap === 'sync' ? value : Promise.resolve(value)));
      for (const value of [undefined, null, false]) {
        it(`${wrap} ${String(value)} rejects`, async () => {
          assert.deepEqual(await make(value).verify(request), { state: 'rejected' });
        });
      }
      for (const value of [0, '', [], {}, true, -0, 0n]) {
        it(`${wrap} ${typeof value} ${JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))} accepts`, async () => {
          const outcome = await make(value).verify(request);
          assert.equal(outcome.state, 'accepted');
          assert.equal(outcome.value, value);
        });
      }
    }
  });

  it('lets errors propagate, sync or async', async () => {
    const boom = new Error('boom');
    // A synchronous hook's error is thrown synchronously, an async one's rejects: both propagate.
    assert.throws(
      () =>
        authFunction(() => {
          throw boom;
        }).verify(request),
      boom,
    );
    await assert.rejects(
      async () => authFunction(() => Promise.reject(boom)).verify(request),
      boom,
    );
  });

  it('is undocumented, not cookie-based and silent by default', () => {
    const auth = authFunction(() => undefined);
    assert.equal(auth.securityScheme, undefined);
    assert.equal(auth.cookieBased, false);
    assert.equal(auth.challenge(), undefined);
    assert.equal(auth.realm, undefined);
  });

  it('derives its scheme name from the function name', () => {
    function ipAllowList(): undefined {
      return undefined;
    }
    assert.equal(authFunction(ipAllowList).schemeName, 'function_ipAllowList');
    assert.equal(new FunctionAuthenticator(() => undefined).schemeName, 'function_anonymous');
    const bound = ipAllowList.bind(null);
    assert.equal(bound.name, 'bound ipAllowList');
    assert.equal(authFunction(bound).schemeName, 'function_bound_ipAllowList');
    const $check = (): undefined => undefined;
    assert.match(authFunction($check).schemeName, /^[A-Za-z0-9._-]+$/);
  });

  it('takes a name, realm, documented scheme and challenge', () => {
    const auth = authFunction(() => undefined, {
      name: 'ipAllowList',
      realm: 'lan',
      securityScheme: { type: 'apiKey', in: 'header', name: 'X-Forwarded-For' },
      challenge: 'IP realm="lan"',
    });
    assert.equal(auth.schemeName, 'ipAllowList');
    assert.equal(auth.realm, 'lan');
    assert.deepEqual(auth.securityScheme, {
      type: 'apiKey',
      in: 'header',
      name: 'X-Forwarded-For',
    });
    assert.equal(auth.challenge(), 'IP realm="lan"');
  });

  it('refuses something that is not a function, or a challenge with CR/LF', () => {
    assert.throws(() => authFunction('fn' as never), { code: 'VOUCH_ERR_CONFIGURATION' });
    assert.throws(() => authFunction(() => 1, { challenge: 'x\r\ny' }), {
      code: 'VOUCH_ERR_CONFIGURATION',
    });
  });

  it('keeps the wrapped function', () => {
    const fn = (): string => 'x';
    assert.equal(authFunction(fn).fn, fn);
  });
});
