import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { APIKeyHeader } from '../api-key/api-key-header.js';
import { allOf } from '../core/all-of.js';
import { resolveAuth, type Requirement } from '../core/auth-spec.js';
import { authenticate } from '../core/authenticate.js';
import { AuthenticationError } from '../core/errors.js';
import type { RequestView } from '../core/request.js';
import { edge } from '../edge/edge.js';
import { clientCertHeader, testPki } from '../../test/helpers/pki.js';
import { ClientCertificateAuth } from './index.js';

const pki = testPki();
const front = edge({ trustedProxies: 'loopback' });

/** A request forwarded by the proxy on 127.0.0.1 (or sent by `peer`), with this Client-Cert. */
function forwarded(der: Uint8Array | string | undefined, peer = '127.0.0.1'): RequestView {
  const value = typeof der === 'string' || der === undefined ? der : clientCertHeader(der);
  const headers: Record<string, string> = value === undefined ? {} : { 'client-cert': value };
  return { method: 'GET', url: '/', headers, socket: { remoteAddress: peer } };
}

const seen: X509Certificate[] = [];
const bySubject = new ClientCertificateAuth({
  edge: front,
  map: (certificate) => {
    seen.push(certificate);
    return certificate.subject === 'CN=client-1' ? { client: 'one' } : undefined;
  },
});

describe('ClientCertificateAuth', () => {
  it('accepts a verified, current certificate: request.auth is what map makes of it', async () => {
    assert.deepEqual(await bySubject.verify(forwarded(pki.client.der)), {
      state: 'accepted',
      value: { client: 'one' },
    });
    const given = new X509Certificate(pki.client.cert);
    assert.equal(seen.at(-1)?.fingerprint256, given.fingerprint256, 'map gets the certificate');
  });

  it('refuses a certificate map returns nothing for, and waits for an async map', async () => {
    assert.deepEqual(await bySubject.verify(forwarded(pki.otherClient.der)), { state: 'rejected' });
    const later = new ClientCertificateAuth({
      edge: front,
      map: async (certificate) => (await Promise.resolve(certificate.subject)) || undefined,
    });
    assert.deepEqual(await later.verify(forwarded(pki.client.der)), {
      state: 'accepted',
      value: 'CN=client-1',
    });
  });

  it('refuses a certificate outside its validity dates, even from a trusted proxy', async () => {
    const before = seen.length;
    for (const issued of [pki.expired, pki.notYetValid]) {
      assert.deepEqual(await bySubject.verify(forwarded(issued.der)), { state: 'rejected' });
    }
    assert.equal(seen.length, before, 'map is not asked');
  });

  it('refuses a forged, malformed or non-certificate Client-Cert; none at all is absent', async () => {
    const forged = forwarded(pki.client.der, '203.0.113.7');
    assert.deepEqual(await bySubject.verify(forged), { state: 'rejected' });
    assert.deepEqual(await bySubject.verify(forwarded('not sf-binary')), { state: 'rejected' });
    assert.deepEqual(await bySubject.verify(forwarded(':AQID:')), { state: 'rejected' });
    assert.deepEqual(await bySubject.verify(forwarded(undefined)), { state: 'absent' });
  });

  it('distrusts a request whose certificate cannot be used: forged, malformed, unverified', () => {
    const unverified: RequestView = {
      method: 'GET',
      url: '/',
      headers: {},
      socket: {
        remoteAddress: '203.0.113.7',
        encrypted: true,
        authorized: false,
        getPeerX509Certificate: () => new X509Certificate(pki.stranger.cert),
      },
    };
    for (const view of [
      forwarded(pki.client.der, '203.0.113.7'),
      forwarded('not sf-binary'),
      unverified,
    ]) {
      assert.equal(bySubject.distrusts(view), true);
    }
    for (const view of [
      forwarded(pki.client.der),
      forwarded(pki.expired.der),
      forwarded(undefined),
    ]) {
      assert.equal(bySubject.distrusts(view), false);
    }
  });

  it('in a list, a forged Client-Cert refuses the request though a valid key stands beside it', async () => {
    const keys: string[] = [];
    const key = new APIKeyHeader({
      paramName: 'X-API-Key',
      authenticate: (_request, given) => {
        keys.push(given);
        return given === 'good' ? 'app' : undefined;
      },
    });
    const withKey = (view: RequestView): RequestView => ({
      ...view,
      headers: { ...view.headers, 'x-api-key': 'good' },
    });
    const forged = withKey(forwarded(pki.client.der, '203.0.113.7'));
    for (const auth of [
      [bySubject, key],
      [key, bySubject],
      [allOf(key, bySubject), key],
    ]) {
      const requirements = resolveAuth(auth, 'GET /') as readonly Requirement[];
      const result = await authenticate(requirements, forged, { realm: 'api' });
      assert.ok(!result.ok);
      assert.ok(result.error instanceof AuthenticationError);
      // The key's challenge, as when no credential was sent: a certificate has none.
      assert.deepEqual(result.challenges, ['APIKey realm="api", in="header", name="X-API-Key"']);
    }
    assert.deepEqual(keys, [], 'the key is never looked up');
    const requirements = resolveAuth([bySubject, key], 'GET /') as readonly Requirement[];
    const trusted = await authenticate(requirements, withKey(forwarded(pki.client.der)), {
      realm: 'api',
    });
    assert.deepEqual(trusted.ok && trusted.value, { client: 'one' });
    const none = await authenticate(requirements, withKey(forwarded(undefined)), { realm: 'api' });
    assert.equal(none.ok && none.value, 'app');
  });

  it('is documented as mutualTLS, sends no challenge (HTTP has no scheme for it), answers privately', () => {
    assert.equal(bySubject.schemeName, 'mutualTLS');
    assert.deepEqual(bySubject.securityScheme, { type: 'mutualTLS' });
    assert.equal(bySubject.challenge('api', true), undefined);
    assert.equal(bySubject.readsCredential, false);
    // No Authorization header keeps a shared cache from storing its answers (RFC 9111 §3.5).
    assert.equal(bySubject.privateResponses, true);
    const named = new ClientCertificateAuth({
      edge: front,
      map: () => true,
      name: 'partnerCertificates',
      description: 'Partners, by certificate',
    });
    assert.equal(named.schemeName, 'partnerCertificates');
    assert.deepEqual(named.securityScheme, {
      type: 'mutualTLS',
      description: 'Partners, by certificate',
    });
  });

  it('needs an edge and a map, at start-up', () => {
    const missing = [
      { map: () => true },
      { edge: {}, map: () => true },
      { edge: front },
    ] as unknown as ConstructorParameters<typeof ClientCertificateAuth>[0][];
    for (const options of missing) {
      assert.throws(() => new ClientCertificateAuth(options), { code: 'VOUCH_ERR_CONFIGURATION' });
    }
  });
});
