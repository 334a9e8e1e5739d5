// The entry JwtBearer and IntrospectionBearer share; their own suites and test/spec/rfc8705-mtls
// and rfc9449-dpop run it with real tokens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthRequest, RequestView } from '../core/request.js';
import { edge } from '../edge/edge.js';
import { HttpBearer } from '../http/http-bearer.js';
import { clientCertHeader, testPki, thumbprint } from '../../test/helpers/pki.js';
import { AccessTokenBearer } from './access-token-bearer.js';
import type { Possession } from './confirmation.js';
import { protectedResource } from './protected-resource.js';

const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.7';

function view(token: string, from = PROXY, headers: Record<string, string> = {}): RequestView {
  const all = { authorization: `Bearer ${token}`, ...headers };
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
