import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
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
