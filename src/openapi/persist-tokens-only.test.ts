import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { PERSISTENCE_NOTE, persistTokensOnlySource } from './persist-tokens-only-source.js';
import { persistTokensOnly, type SwaggerUiPlugin } from './persist-tokens-only.js';

const PASSWORD = 'hunter2-password';
const SECRET = 'client-secret-value';

/** What Swagger UI's auth state holds once each kind of scheme is authorized (its `toJS()`). */
const authorized = {
  bearer: { name: 'bearer', schema: { type: 'http', scheme: 'Bearer' }, value: 'tok-1' },
  headerKey: {
    name: 'headerKey',
    schema: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    value: 'key-1',
  },
  cookieKey: {
    name: 'cookieKey',
    schema: { type: 'apiKey', in: 'cookie', name: 'k' },
    value: 'key-2',
  },
  basic: {
    name: 'basic',
    schema: { type: 'http', scheme: 'basic' },
    value: { username: 'ann', password: PASSWORD },
  },
  // Swagger 2.0's basic keeps the header, the password base64-encoded in it.
  swagger2Basic: {
    name: 'swagger2Basic',
    schema: { type: 'basic' },
    value: { username: 'ann', header: `Basic ${btoa(`ann:${PASSWORD}`)}` },
  },
  digest: { name: 'digest', schema: { type: 'http', scheme: 'digest' }, value: PASSWORD },
  oauth2: {
    name: 'oauth2',
    schema: { type: 'oauth2', flows: { password: { tokenUrl: '/api/token', scopes: {} } } },
    username: 'ann',
    password: PASSWORD,
    passwordType: 'request-body',
    clientId: 'client',
    clientSecret: SECRET,
    scopes: ['admin'],
    token: {
      access_token: 'tok-2',
      token_type: 'bearer',
      refresh_token: 'refresh-1',
      expires_in: 3600,
      password: PASSWORD,
    },
  },
  oidc: {
    name: 'oidc',
    schema: {
      type: 'openIdConnect',
      openIdConnectUrl: 'https://id.test',
      'x-tokenName': 'id_token',
    },
    token: { id_token: 'id-1', access_token: 'tok-3', token_type: 'Bearer' },
  },
  oauth2WithoutToken: { name: 'oauth2WithoutToken', schema: { type: 'oauth2' }, token: {} },
  keyWithoutValue: { name: 'keyWithoutValue', schema: { type: 'apiKey' }, value: { x: 1 } },
  mutualTLS: { name: 'mutualTLS', schema: { type: 'mutualTLS' }, value: 'cert' },
  nothing: null,
};

/** What may be kept of it: tokens and keys. */
const kept = {
  bearer: authorized.bearer,
  headerKey: authorized.headerKey,
  cookieKey: authorized.cookieKey,
  oauth2: {
    name: 'oauth2',
    schema: authorized.oauth2.schema,
    scopes: ['admin'],
    token: { token_type: 'bearer', access_token: 'tok-2' },
  },
  oidc: {
    name: 'oidc',
    schema: authorized.oidc.schema,
    token: { token_type: 'Bearer', id_token: 'id-1' },
  },
};

/** A page's `localStorage`. */
class Storage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

interface Element {
  type: unknown;
  props: unknown;
  children: unknown[];
}
type Wrapper = (...args: unknown[]) => (...args: unknown[]) => unknown;
interface Added {
  statePlugins: { auth: { wrapActions: Record<string, Wrapper> } };
  wrapComponents: { auths: Wrapper };
}

/** The plugin as the page runs it: its text, in a context with only a page's `window`. */
function inPage(plugin: SwaggerUiPlugin = persistTokensOnly()) {
  const storage = new Storage();
  const compiled = runInNewContext(`(${String(plugin)})`, {
    window: { localStorage: storage },
  }) as SwaggerUiPlugin;
  const added = compiled({}) as unknown as Added;
  return { storage, added };
}

/** Swagger UI's system, as far as the plugin reads it. */
function system(state: unknown, persistAuthorization = true, first?: unknown) {
  return {
    getConfigs: () => ({ persistAuthorization }),
    authSelectors: {
      authorized: () => (state === undefined ? undefined : { toJS: () => state }),
      shownDefinitions: () => ({ first: () => first }),
    },
    React: {
      createElement: (type: unknown, props: unknown, ...children: unknown[]): Element => ({
        type,
        props,
        children,
      }),
    },
  };
}

function stored(storage: Storage): unknown {
  const text = storage.getItem('authorized');
  return text === null ? null : JSON.parse(text);
}

describe('persistTokensOnly', () => {
  it('is plain ES5 text, the same as persistTokensOnlySource()', () => {
    const text = String(persistTokensOnly());
    assert.equal(text, persistTokensOnlySource());
    assert.match(text, /^function vouchPersistTokensOnly\(\) \{/);
    assert.doesNotMatch(text, /=>|\blet\b|\bconst\b|`/);
  });

  it('keeps bearer tokens, API keys and OAuth2 access tokens, never a password or secret', () => {
    const { storage, added } = inPage();
    const persist = added.statePlugins.auth.wrapActions['persistAuthorizationIfNeeded']!;
    const original = () => assert.fail("Swagger UI's own persistence must not run");
    persist(original, system(authorized))();
    assert.deepEqual(stored(storage), kept);
    const text = storage.getItem('authorized') ?? '';
    for (const secret of [PASSWORD, btoa(`ann:${PASSWORD}`), SECRET, 'refresh-1', 'ann']) {
      assert.equal(text.includes(secret), false, `${secret} is not kept`);
    }
  });

  it('keeps nothing when Swagger UI holds no authorization', () => {
    const { storage, added } = inPage();
    const persist = added.statePlugins.auth.wrapActions['persistAuthorizationIfNeeded']!;
    persist(() => undefined, system(undefined))();
    assert.deepEqual(stored(storage), {});
  });

  it('stores nothing when persistAuthorization is off', () => {
    const { storage, added } = inPage();
    const persist = added.statePlugins.auth.wrapActions['persistAuthorizationIfNeeded']!;
    persist(() => undefined, system(authorized, false))();
    assert.equal(stored(storage), null);
  });

  it('restores only tokens and keys, and rewrites what an earlier page kept', () => {
    const { storage, added } = inPage();
    storage.setItem('authorized', JSON.stringify(authorized));
    const restore = added.statePlugins.auth.wrapActions['restoreAuthorization']!;
    const restored: unknown[] = [];
    const original = (payload: unknown) => {
      restored.push(JSON.parse(JSON.stringify(payload)));
      return 'dispatched';
    };
    // Once restored, Swagger UI's state holds what was restored.
    const result = restore(original, system(kept))({ authorized });
    assert.equal(result, 'dispatched');
    assert.deepEqual(restored, [{ authorized: kept }]);
    assert.deepEqual(stored(storage), kept);
    restore(original, system({}))(undefined);
    assert.deepEqual(restored[1], { authorized: {} });
  });

  it('says in the Authorize dialog, above the first group of schemes, what it keeps', () => {
    const { added } = inPage();
    const first = { first: true };
    const Original = 'Auths';
    const props = { definitions: first };
    const element = added.wrapComponents.auths(Original, system({}, true, first))(props) as Element;
    assert.equal(element.type, 'div');
    const [note, original] = element.children as Element[];
    // Made in the page's context: compared by value.
    assert.deepEqual(JSON.parse(JSON.stringify(note)), {
      type: 'p',
      props: { className: 'vouch-persistence-note' },
      children: [PERSISTENCE_NOTE],
    });
    assert.deepEqual(original, { type: Original, props, children: [] });

    const other = added.wrapComponents.auths(
      Original,
      system({}, true, first),
    )({
      definitions: {},
    });
    assert.deepEqual(other, { type: Original, props: { definitions: {} }, children: [] });
    const off = added.wrapComponents.auths(Original, system({}, false, first))(props);
    assert.deepEqual(off, { type: Original, props, children: [] });
  });
});
