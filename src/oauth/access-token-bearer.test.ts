// The entry JwtBearer and IntrospectionBearer share; their own suites and test/spec/rfc8705-mtls
// and rfc9449-dpop run it with real tokens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyHeader } from '../api-key/api-key-header.js';
import { allOf } from '../core/all-of.js';
import { resolveAuth, type AuthSpec, type Requirement } from '../core/auth-spec.js';
import { authenticate } from '../core/authenticate.js';
import { AuthenticationError } from '../core/errors.js';
import { REJECTED } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import { edge } from '../edge/edge.js';
import { HttpBearer } from '../http/http-bearer.js';
import { clientCertHeader, testPki, thumbprint } from '../../test/helpers/pki.js';
import { AccessTokenBearer } from './access-token-bearer.js';
import type { Possession } from './confirmation.js';
import { protectedResource } from './protected-resource.js';

const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.7';

/** A request from `from`, with `token` as Bearer (none when `undefined`) and `headers`. */
function view(
  token: string | undefined,
  from = PROXY,
  headers: Record<string, string> = {},
): RequestView {
  const all = { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers };
  const rawHeaders = Object.entries(all).flat();
  return {
    method: 'GET',
    url: '/',
    headers: all,
    raw: { rawHeaders },
    socket: { remoteAddress: from },
  };
}

/** A check accepting the token `good`, recording what each call was given as proved. */
function recording() {
  const given: (Possession | undefined)[] = [];
  const check = (_request: AuthRequest, token: string, possession?: Possession) => {
    given.push(possession);
    return token === 'good' ? { token } : undefined;
  };
  return { given, check };
}

describe('AccessTokenBearer', () => {
  const pki = testPki();
  const front = edge({ trustedProxies: 'loopback' });
  const withCertificate = { 'client-cert': clientCertHeader(pki.client.der) };

  it('is an HttpBearer whose hook is the check, proving nothing without clientCertificates', async () => {
    const { given, check } = recording();
    const bearer = new AccessTokenBearer(check, {});
    assert.ok(bearer instanceof HttpBearer);
    assert.deepEqual(await bearer.verify(view('good', PROXY, withCertificate)), {
      state: 'accepted',
      value: { token: 'good' },
    });
    assert.equal((await bearer.verify(view('bad'))).state, 'rejected');
    assert.deepEqual(given, [undefined, undefined]);
  });

  it("adds the request's certificate to what it proved, on the Bearer and the verifyToken path", async () => {
    const { given, check } = recording();
    const bearer = new AccessTokenBearer(check, { clientCertificates: front });
    const request = view('good', PROXY, withCertificate) as AuthRequest;
    assert.equal((await bearer.verify(request)).state, 'accepted');
    assert.deepEqual(await bearer.verifyToken(request, 'good', { jkt: 'key' }), { token: 'good' });
    const x5tS256 = thumbprint(pki.client.der);
    assert.deepEqual(given, [{ x5tS256 }, { jkt: 'key', x5tS256 }]);
  });

  it('refuses a request whose certificate is unusable, on either path, without checking', async () => {
    const { given, check } = recording();
    const bearer = new AccessTokenBearer(check, { clientCertificates: front });
    const forged = view('good', CLIENT, withCertificate) as AuthRequest;
    assert.equal((await bearer.verify(forged)).state, 'rejected');
    assert.equal(await bearer.verifyToken(forged, 'good', { jkt: 'key' }), undefined);
    assert.deepEqual(given, []);
  });

  it('distrusts a request whose certificate is unusable: a token it presents is refused with it', () => {
    const { given, check } = recording();
    const bearer = new AccessTokenBearer(check, { clientCertificates: front });
    const malformed = { 'client-cert': ':AQ ID:' };
    for (const [request, verdict] of [
      [view('good', CLIENT, withCertificate), REJECTED],
      [view('not a b64token', CLIENT, withCertificate), REJECTED],
      [view('good', PROXY, malformed), REJECTED],
      [view(undefined, CLIENT, withCertificate), true],
      [view(undefined, CLIENT, { ...withCertificate, authorization: 'DPoP good' }), true],
      [view('good', PROXY, withCertificate), false],
      [view('good', CLIENT), false],
      [view(undefined, PROXY), false],
    ] as const) {
      assert.equal(bearer.distrusts(request), verdict);
    }
    // Without clientCertificates it reads no certificate, so it trusts what it cannot see.
    const blind = new AccessTokenBearer(check, {});
    assert.equal(blind.distrusts(view('good', CLIENT, withCertificate)), false);
    assert.deepEqual(given, [], 'no token is checked');
  });

  it('in a list, an unusable certificate refuses the request though a valid key stands beside it', async () => {
    const keys: string[] = [];
    const key = new APIKeyHeader({
      paramName: 'X-API-Key',
      authenticate: (_request, given) => {
        keys.push(given);
        return given === 'good' ? 'app' : undefined;
      },
    });
    const bearer = new AccessTokenBearer(recording().check, { clientCertificates: front });
    const withKey = { 'x-api-key': 'good' };
    const forged = { ...withKey, ...withCertificate };
    const KEY = 'APIKey realm="api", in="header", name="X-API-Key"';
    const run = async (auth: AuthSpec, request: RequestView) =>
      authenticate(resolveAuth(auth, 'GET /') as readonly Requirement[], request, {
        realm: 'api',
      });
    const auths: [AuthSpec, boolean][] = [
      [[bearer, key], true],
      [[key, bearer], false],
      [allOf(key, bearer), false],
    ];
    for (const [auth, bearerFirst] of auths) {
      // RFC 6750 §3.1: no token, no error; a token sent beside the forgery is refused with it.
      for (const [token, line] of [
        [undefined, 'Bearer realm="api"'],
        ['good', 'Bearer realm="api", error="invalid_token"'],
      ] as const) {
        const result = await run(auth, view(token, CLIENT, forged));
        assert.ok(!result.ok && result.error instanceof AuthenticationError);
        assert.deepEqual(result.challenges, bearerFirst ? [line, KEY] : [KEY, line]);
      }
    }
    assert.deepEqual(keys, [], 'the key is never looked up');
    const list = [bearer, key];
    const keyed = await run(list, view(undefined, CLIENT, withKey));
    assert.equal(keyed.ok && keyed.value, 'app');
    const proved = await run(list, view('good', PROXY, forged));
    assert.deepEqual(proved.ok && proved.value, { token: 'good' });
  });

  it('passes what the request proved to the check, past an authenticate a subclass overrides', async () => {
    const { given, check } = recording();
    class Refusing extends AccessTokenBearer<{ token: string }> {
      override authenticate() {
        return undefined;
      }
    }
    const bearer = new Refusing(check, {});
    assert.equal((await bearer.verify(view('good'))).state, 'rejected');
    const request = view('good') as AuthRequest;
    assert.deepEqual(await bearer.verifyToken(request, 'good', { jkt: 'key' }), { token: 'good' });
    assert.deepEqual(given, [{ jkt: 'key' }]);
  });

  it('is the HttpBearer its options describe', async () => {
    const resource = protectedResource({
      resource: 'https://api.example/mcp',
      authorizationServers: ['https://login.example'],
    });
    const { given, check } = recording();
    const bearer = new AccessTokenBearer(check, {
      name: 'partnerTokens',
      realm: 'partners',
      consultsStore: true,
      maxLength: 3,
      bearerFormat: 'JWT',
      description: 'Tokens of the partner',
      resource,
    });
    assert.equal(bearer.schemeName, 'partnerTokens');
    assert.equal(bearer.realm, 'partners');
    assert.equal(bearer.consultsStore, true);
    assert.equal(bearer.resource, resource);
    assert.deepEqual(bearer.securityScheme, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'Tokens of the partner',
    });
    // Longer than maxLength: refused unheard.
    assert.equal((await bearer.verify(view('good'))).state, 'rejected');
    assert.deepEqual(given, []);

    const plain = new AccessTokenBearer(recording().check, { bearerFormat: undefined });
    assert.equal(plain.schemeName, 'bearerAuth');
    assert.equal(plain.consultsStore, false);
    assert.equal(plain.resource, undefined);
    assert.deepEqual(plain.securityScheme, { type: 'http', scheme: 'bearer' });
  });
});
