import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { APIKey, APIKeyOptions } from './api-key.js';
import { APIKeyCookie } from './api-key-cookie.js';
import { APIKeyHeader } from './api-key-header.js';
import { APIKeyQuery } from './api-key-query.js';

/** Each kind with a request carrying `key` in its transport under `name`. */
const kinds: readonly {
  kind: string;
  make: (options: APIKeyOptions<unknown>) => APIKey;
  carrying: (name: string, key: string) => RequestView;
}[] = [
  {
    kind: 'query',
    make: (options) => new APIKeyQuery(options),
    carrying: (name, key) => ({
      method: 'GET',
      url: `/x?${new URLSearchParams({ [name]: key }).toString()}`,
      headers: {},
    }),
  },
  {
    kind: 'header',
    make: (options) => new APIKeyHeader(options),
    carrying: (name, key) => ({
      method: 'GET',
      url: '/x',
      headers: { [name.toLowerCase()]: key },
      raw: { rawHeaders: [name, key] },
    }),
  },
  {
    kind: 'cookie',
    make: (options) => new APIKeyCookie(options),
    carrying: (name, key) => ({ method: 'GET', url: '/x', headers: { cookie: `${name}=${key}` } }),
  },
];

describe('APIKey (all three kinds)', () => {
  for (const { kind, make, carrying } of kinds) {
    describe(kind, () => {
      it('throws ConfigurationError at construction without a hook', () => {
        assert.throws(() => make({ paramName: 'k' }), { code: 'VOUCH_ERR_CONFIGURATION' });
      });

      it('applies a configured maxLength', async () => {
        let calls = 0;
        const apiKey = make({
          paramName: 'k',
          maxLength: 3,
          authenticate: () => {
            calls++;
            return 'ok';
          },
        });
        assert.equal((await apiKey.verify(carrying('k', 'abc'))).state, 'accepted');
        assert.equal((await apiKey.verify(carrying('k', 'abcd'))).state, 'rejected');
        assert.equal(calls, 1);
      });

      it('documents a description and sanitises the derived scheme name', () => {
        const apiKey = make({
          paramName: 'my~key!',
          description: 'Application key',
          authenticate: () => undefined,
        });
        assert.match(apiKey.schemeName, /^apiKey(Query|Header|Cookie)_my_key_$/);
        assert.deepEqual(apiKey.securityScheme, {
          type: 'apiKey',
          in: kind,
          name: 'my~key!',
          description: 'Application key',
        });
      });

      it('quotes the parameter name in its challenge', () => {
        // A quote can only be in a query parameter's name; header and cookie names are tokens.
        const [paramName, quoted] = kind === 'query' ? ['a"b', 'a\\"b'] : ["a'b", "a'b"];
        const apiKey = make({ paramName, authenticate: () => undefined });
        assert.equal(apiKey.challenge('r'), `APIKey realm="r", in="${kind}", name="${quoted}"`);
      });

      it('uses an explicit name and realm', () => {
        const apiKey = make({ name: 'appKey', realm: 'apps', authenticate: () => undefined });
        assert.equal(apiKey.schemeName, 'appKey');
        assert.equal(apiKey.realm, 'apps');
      });

      it('checks static keys in place of a hook, each accepting as its own value', async () => {
        const apiKey = make({
          paramName: 'k',
          keys: new Map([
            ['key-one', { app: 'one' }],
            ['key-two', { app: 'two' }],
          ]),
        });
        for (const [key, app] of [
          ['key-one', 'one'],
          ['key-two', 'two'],
        ] as const) {
          const outcome = await apiKey.verify(carrying('k', key));
          assert.equal(outcome.state, 'accepted');
          assert.deepEqual(outcome.value, { app });
        }
        for (const key of ['key-on', 'key-onee', 'KEY-ONE', 'key-three']) {
          assert.equal((await apiKey.verify(carrying('k', key))).state, 'rejected', key);
        }
        assert.equal(
          (await apiKey.verify({ method: 'GET', url: '/', headers: {} })).state,
          'absent',
        );
      });

      it('refuses static keys that could never be accepted, at construction', () => {
        for (const options of [
          { keys: [] },
          { keys: [['', 1]] },
          {
            keys: [
              ['k1', 1],
              ['k1', 2],
            ],
          },
          { keys: [['k1', null]] },
          { keys: [['abcd', 1]], maxLength: 3 },
          { keys: [['k1', 1]], authenticate: () => 1 },
        ] as APIKeyOptions<unknown>[]) {
          assert.throws(() => make({ paramName: 'k', ...options }), {
            code: 'VOUCH_ERR_CONFIGURATION',
          });
        }
      });

      it('follows the accept rule, sync and async', async () => {
        for (const result of [undefined, null, false]) {
          for (const wrap of [(v: unknown) => v, (v: unknown) => Promise.resolve(v)]) {
            const apiKey = make({ paramName: 'k', authenticate: () => wrap(result) });
            assert.equal((await apiKey.verify(carrying('k', 'v'))).state, 'rejected');
          }
        }
        for (const result of [0, '', [], {}]) {
          for (const wrap of [(v: unknown) => v, (v: unknown) => Promise.resolve(v)]) {
            const apiKey = make({ paramName: 'k', authenticate: () => wrap(result) });
            const outcome = await apiKey.verify(carrying('k', 'v'));
            assert.equal(outcome.state, 'accepted');
            assert.equal(outcome.value, result);
          }
        }
      });
    });
  }

  describe('subclass overriding authenticate', () => {
    class Apps extends APIKeyHeader<{ app: string }> {
      calls = 0;
      override authenticate(_request: AuthRequest, key: string): { app: string } | Nothing {
        this.calls++;
        return key === 'k1' ? { app: 'one' } : null;
      }
    }
    class AsyncApps extends APIKeyQuery<string> {
      override authenticate(_request: AuthRequest, key: string): Promise<string | Nothing> {
        return Promise.resolve(key === 'k1' ? 'one' : undefined);
      }
    }

    it('works without a hook option and is not called when the key is absent', async () => {
      const apps = new Apps({ paramName: 'X-API-Key' });
      assert.deepEqual(await apps.verify(kinds[1]!.carrying('X-API-Key', 'k1')), {
        state: 'accepted',
        value: { app: 'one' },
      });
      assert.equal((await apps.verify(kinds[1]!.carrying('X-API-Key', 'k2'))).state, 'rejected');
      assert.equal((await apps.verify({ method: 'GET', url: '/', headers: {} })).state, 'absent');
      assert.equal(apps.calls, 2);
    });

    it('may be async', async () => {
      const apps = new AsyncApps();
      assert.equal((await apps.verify(kinds[0]!.carrying('key', 'k1'))).state, 'accepted');
      assert.equal((await apps.verify(kinds[0]!.carrying('key', 'k2'))).state, 'rejected');
    });
  });
});
