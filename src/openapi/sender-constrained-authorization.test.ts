import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import { runInNewContext } from 'node:vm';
import {
  DPOP_KEY_NOTE,
  DPOP_TOKEN_REQUEST_NOTE,
  MUTUAL_TLS_NOTE,
  senderConstrainedAuthorizationSource,
} from './sender-constrained-authorization-source.js';
import { senderConstrainedAuthorization } from './sender-constrained-authorization.js';

type Wrapper = (...args: unknown[]) => (...args: unknown[]) => unknown;
interface Added {
  statePlugins: { spec: { wrapActions: { executeRequest: Wrapper } } };
  wrapComponents: { HttpAuth: Wrapper; AuthItem: Wrapper };
}
interface Element {
  type: unknown;
  props: Record<string, unknown>;
  children: unknown[];
}

/** An Immutable.js Map as far as the plugin reads one. */
class ImmutableMap {
  constructor(private readonly values: Record<string, unknown>) {}
  get(name: string): unknown {
    return this.values[name];
  }
  getIn([first, ...rest]: readonly string[]): unknown {
    const value = first === undefined ? this : this.get(first);
    return rest.length === 0 || !(value instanceof ImmutableMap) ? value : value.getIn(rest);
  }
}

/** The plugin as the page runs it: its text, in a context with only a page's `window`. */
function inPage(window: Record<string, unknown> = { crypto: globalThis.crypto }): Added {
  const compiled = runInNewContext(`(${senderConstrainedAuthorizationSource()})`, {
    window: { location: new URL('http://api.test/api/docs'), ...window },
    Promise,
    TextEncoder,
    btoa,
    URL,
  }) as () => Added;
  return compiled();
}

/** What Try it out hands to `executeRequest`: the spec and what Authorize holds (as JS). */
function tryItOut(authorized: Record<string, unknown>) {
  return {
    pathName: '/pets',
    method: 'get',
    spec: {
      openapi: '3.1.0',
      components: {
        securitySchemes: {
          dpopAuth: { type: 'http', scheme: 'DPoP' },
          otherDpop: { type: 'http', scheme: 'dpop' },
          bearerAuth: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    securities: { authorized, specSecurity: [] },
  };
}

/** Response headers as swagger-client keeps them: a value it split at ", " is a list. */
type Headers = Record<string, string | string[]>;

/** Swagger UI's system, as far as the plugin reads it: the response stored for Try it out. */
function system(response?: { status: number; headers: Headers }) {
  return {
    specSelectors: {
      responseFor: () =>
        response && new ImmutableMap({ ...response, headers: new ImmutableMap(response.headers) }),
    },
  };
}

describe('senderConstrainedAuthorization', () => {
  it('is plain ES5 text, the same as senderConstrainedAuthorizationSource()', () => {
    const text = String(senderConstrainedAuthorization());
    assert.equal(text, senderConstrainedAuthorizationSource());
    assert.match(text, /^function vouchSenderConstrainedAuthorization\(\) \{/);
    assert.doesNotMatch(text, /=>|\blet\b|\bconst\b|`/);
  });

  it('has Try it out send a DPoP scheme holding a token as Authorization: DPoP', () => {
    const executeRequest = inPage().statePlugins.spec.wrapActions.executeRequest;
    const request = tryItOut({
      dpopAuth: { name: 'dpopAuth', value: ' tok-1 ' },
      otherDpop: { name: 'otherDpop', value: '' },
      bearerAuth: { name: 'bearerAuth', value: 'tok-2' },
    });
    const given = structuredClone(request);
    const sent: unknown[] = [];
    executeRequest((req: unknown) => sent.push(structuredClone(req)), system())(request);
    assert.deepEqual(sent, [
      {
        ...given,
        spec: {
          ...given.spec,
          components: {
            securitySchemes: {
              ...given.spec.components.securitySchemes,
              dpopAuth: { type: 'apiKey', in: 'header', name: 'Authorization' },
            },
          },
        },
        securities: {
          ...given.securities,
          authorized: {
            ...given.securities.authorized,
            dpopAuth: {
              name: 'dpopAuth',
              schema: { type: 'http', scheme: 'DPoP' },
              value: 'DPoP tok-1',
            },
          },
        },
      },
    ]);
  });

  it('leaves a request without a DPoP token to Swagger UI as it is', () => {
    const executeRequest = inPage().statePlugins.spec.wrapActions.executeRequest;
    for (const authorized of [{}, { bearerAuth: { value: 't' } }, { dpopAuth: { value: {} } }]) {
      const request = tryItOut(authorized);
      const given = structuredClone(request);
      const answer = executeRequest((req: unknown) => {
        assert.deepEqual(req, given);
        return 'answer';
      }, system())(request);
      assert.equal(answer, 'answer');
    }
    const bare = { pathName: '/x', method: 'get' };
    assert.equal(
      executeRequest(() => 'bare', system())(bare),
      'bare',
      'a request without spec or securities',
    );
  });

  const challenges: [name: string, status: number, headers: Headers, runs: number][] = [
    [
      'a 401 asking for a nonce (RFC 9449 §9)',
      401,
      { 'www-authenticate': 'DPoP error="use_dpop_nonce", algs="ES256"', 'dpop-nonce': 'n' },
      2,
    ],
    [
      'a 401 asking for one beside a Bearer challenge',
      401,
      {
        'www-authenticate': 'Bearer realm="api", DPoP realm="api", error=use_dpop_nonce',
        'dpop-nonce': 'n',
      },
      2,
    ],
    [
      'a 401 asking for one in a challenge swagger-client split at its commas',
      401,
      { 'www-authenticate': ['DPoP error="use_dpop_nonce"', 'algs="ES256"'], 'dpop-nonce': 'n' },
      2,
    ],
    ['a 200', 200, { 'dpop-nonce': 'n' }, 1],
    [
      'a 401 with a nonce but another error',
      401,
      { 'www-authenticate': 'DPoP error="invalid_token"', 'dpop-nonce': 'n' },
      1,
    ],
    [
      'a 401 asking for a nonce without one',
      401,
      { 'www-authenticate': 'DPoP error="use_dpop_nonce"' },
      1,
    ],
    [
      'a 401 whose Bearer challenge names it',
      401,
      { 'www-authenticate': 'Bearer error="use_dpop_nonce"', 'dpop-nonce': 'n' },
      1,
    ],
  ];
  for (const [name, status, headers, runs] of challenges) {
    it(`tries ${runs === 2 ? 'again, once,' : 'once'} after ${name}`, async () => {
      const executeRequest = inPage().statePlugins.spec.wrapActions.executeRequest;
      let calls = 0;
      const original = () => Promise.resolve(`answer ${++calls}`);
      const request = tryItOut({ dpopAuth: { value: 'tok' } });
      const answer = await executeRequest(original, system({ status, headers }))(request);
      assert.equal(calls, runs);
      assert.equal(answer, `answer ${runs}`);
    });
  }

  it('tries once when no response was stored', async () => {
    const executeRequest = inPage().statePlugins.spec.wrapActions.executeRequest;
    let calls = 0;
    const request = tryItOut({ dpopAuth: { value: 'tok' } });
    await executeRequest(() => ++calls, system())(request);
    assert.equal(calls, 1);
  });

  describe('in the Authorize dialog', () => {
    /** React as far as the plugin uses it; `useState` holds `state`, effects run at once. */
    function react(state: Record<string, unknown>, cleanups: (() => void)[]) {
      return {
        createElement: (type: unknown, props: unknown, ...children: unknown[]): Element => ({
          type,
          props: (props ?? {}) as Record<string, unknown>,
          children,
        }),
        useState: () => [
          state,
          (next: (previous: Record<string, unknown>) => Record<string, unknown>) =>
            Object.assign(state, next(state)),
        ],
        useEffect: (effect: () => () => void) => cleanups.push(effect()),
      };
    }

    function props(scheme: string, authorized?: ImmutableMap) {
      return {
        name: 'dpopAuth',
        schema: new ImmutableMap({ type: 'http', scheme, description: 'Bound tokens' }),
        getComponent: (component: string) => component,
        authorized,
        errSelectors: {
          allErrors: () => ({
            filter: () => ({ valueSeq: () => ({ map: () => [] }) }),
          }),
        },
        authSelectors: { selectAuthPath: () => ['components', 'securitySchemes', 'dpopAuth'] },
        onChange: () => undefined,
      };
    }

    /** All the text an element shows, and its elements by class name and by id. */
    function walk(
      node: unknown,
      found: { text: string; byClass: Map<string, Element>; byId?: Map<string, Element> },
    ) {
      if (typeof node === 'string') found.text += node;
      if (typeof node !== 'object' || node === null) return found;
      if (Array.isArray(node)) {
        for (const item of node) walk(item, found);
        return found;
      }
      const element = node as Element;
      const className = element.props['className'];
      if (typeof className === 'string') found.byClass.set(className, element);
      const id = element.props['id'];
      if (typeof id === 'string') found.byId?.set(id, element);
      for (const child of element.children) walk(child, found);
      return found;
    }

    it('says that the browser presents the certificate of a mutualTLS scheme', () => {
      const AuthItem = inPage().wrapComponents.AuthItem('Original', { React: react({}, []) });
      const mutualTLS = { ...props('unused'), schema: new ImmutableMap({ type: 'mutualTLS' }) };
      const shown = walk(AuthItem(mutualTLS), { text: '', byClass: new Map() });
      assert.match(shown.text, /^dpopAuth {2}\(mutualTLS\)/);
      assert.deepEqual(shown.byClass.get('vouch-mutual-tls')?.children, [MUTUAL_TLS_NOTE]);
      for (const other of [props('DPoP'), { ...props('DPoP'), schema: undefined }]) {
        assert.equal((AuthItem(other) as Element).type, 'Original');
      }
    });

    it('leaves every other http scheme to Swagger UI', () => {
      const HttpAuth = inPage().wrapComponents.HttpAuth('Original', { React: react({}, []) });
      const element = HttpAuth(props('bearer')) as Element;
      assert.equal(element.type, 'Original');
    });

    it("shows the page key's thumbprint and takes a token as Bearer does", async () => {
      const state: Record<string, unknown> = {};
      const cleanups: (() => void)[] = [];
      const HttpAuth = inPage().wrapComponents.HttpAuth('Original', {
        React: react(state, cleanups),
      });
      const wrapped = HttpAuth(props('DPoP')) as Element;
      const DpopAuth = wrapped.type as (props: unknown) => Element;
      const given: unknown[] = [];
      const first = walk(DpopAuth(props('DPoP')), { text: '', byClass: new Map() });
      assert.match(first.text, /dpopAuth {2}\(http, DPoP\)/);
      assert.equal(first.text.includes('Authorized'), false);
      while (state['jkt'] === undefined) await new Promise((resolve) => setImmediate(resolve));
      const shown = walk(DpopAuth(props('DPoP')), { text: '', byClass: new Map() });
      const jkt = state['jkt'] as string;
      assert.ok(shown.text.includes(`${DPOP_KEY_NOTE} ${jkt}`));
      assert.deepEqual(shown.byClass.get('vouch-dpop-jkt')?.children, [jkt]);
      assert.match(jkt, /^[A-Za-z0-9_-]{43}$/);
      // The Value row: its field hands Authorize what Swagger UI's own fields hand it.
      const rendered = DpopAuth({ ...props('DPoP'), onChange: (v: unknown) => given.push(v) });
      const fields = walk(rendered, { text: '', byClass: new Map(), byId: new Map() }).byId;
      const input = fields?.get('auth-dpop-value');
      assert.ok(input);
      (input.props['onChange'] as (event: unknown) => void)({ target: { value: 'tok' } });
      assert.equal(given.length, 1);
      assert.deepEqual(Object.keys(given[0] as object), ['name', 'schema', 'value']);
      assert.equal((given[0] as { value: string }).value, 'tok');
      for (const cleanup of cleanups) cleanup();
    });

    it('signs a proof for a token request to the endpoint given (RFC 9449 §5)', async () => {
      const state: Record<string, unknown> = {};
      const HttpAuth = inPage().wrapComponents.HttpAuth('Original', { React: react(state, []) });
      const DpopAuth = (HttpAuth(props('DPoP')) as Element).type as (props: unknown) => Element;
      const render = () =>
        walk(DpopAuth(props('DPoP')), { text: '', byClass: new Map(), byId: new Map() });
      const before = render();
      assert.equal(before.byId?.get('auth-dpop-token-endpoint'), undefined, 'not before the key');
      while (state['jkt'] === undefined) await new Promise((resolve) => setImmediate(resolve));
      const sign = async (endpoint: string | undefined) => {
        const shown = render();
        const field = shown.byId?.get('auth-dpop-token-endpoint');
        if (endpoint !== undefined) {
          (field?.props['onChange'] as (event: unknown) => void)({ target: { value: endpoint } });
        }
        delete state['proof'];
        delete state['proofError'];
        const button = render().byClass.get('btn vouch-dpop-sign');
        (button?.props['onClick'] as () => void)();
        while (state['proof'] === undefined && state['proofError'] === undefined) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        return render();
      };
      assert.match((await sign(undefined)).text, /No proof: enter the token endpoint first/);
      assert.match((await sign('http://[bad')).text, /No proof: .*URL/i);
      const signed = await sign(' https://as.test/token?x=1 ');
      assert.ok(signed.text.includes(DPOP_TOKEN_REQUEST_NOTE));
      const proof = signed.byClass.get('vouch-dpop-token-proof')?.children[0] as string;
      const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
        typ: 'dpop+jwt',
      });
      assert.equal(payload['htm'], 'POST');
      assert.equal(payload['htu'], 'https://as.test/token');
      assert.equal(payload['ath'], undefined, 'no token yet');
      assert.equal(await calculateJwkThumbprint(protectedHeader.jwk!), state['jkt']);
    });

    it('says when the page cannot sign, and hides a token once authorized', async () => {
      const state: Record<string, unknown> = {};
      const cleanups: (() => void)[] = [];
      const HttpAuth = inPage({}).wrapComponents.HttpAuth('Original', {
        React: react(state, cleanups),
      });
      const DpopAuth = (HttpAuth(props('DPoP')) as Element).type as (props: unknown) => Element;
      const authorized = new ImmutableMap({ dpopAuth: new ImmutableMap({ value: 'tok' }) });
      DpopAuth(props('DPoP', authorized));
      while (state['error'] === undefined) await new Promise((resolve) => setImmediate(resolve));
      const shown = walk(DpopAuth(props('DPoP', authorized)), { text: '', byClass: new Map() });
      assert.match(shown.text, /This page cannot sign DPoP proofs: .*secure context/);
      assert.match(shown.text, /Authorized/);
      assert.match(shown.text, / \*{6} /);
      assert.equal(shown.text.includes('tok'), false);
    });
  });
});
