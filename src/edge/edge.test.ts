// The edge's decisions, from request views; test/spec/rfc8705-mtls.test.ts and
// rfc9440-client-cert.test.ts make the same requests over real sockets, TLS and nginx.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import type { ConnectionView, RequestView } from '../core/request.js';
import { clientCertHeader, testPki, thumbprint } from '../../test/helpers/pki.js';
import { edge } from './edge.js';

const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.7';

function view(
  remoteAddress: string | undefined,
  headers: Record<string, string> = {},
  socket: Partial<ConnectionView> = {},
  url = '/mcp?x=1',
): RequestView {
  const rawHeaders = Object.entries(headers).flat();
  return { method: 'GET', url, headers, raw: { rawHeaders }, socket: { remoteAddress, ...socket } };
}

const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'API.example:443' };

describe('edge().publicUrl', () => {
  const front = edge({ trustedProxies: 'loopback' });

  it('comes from a trusted proxy, normalised, without query', () => {
    assert.equal(front.publicUrl(view(PROXY, forwarded)), 'https://api.example/mcp');
    assert.equal(front.publicUrl(view('::ffff:127.0.0.1', forwarded)), 'https://api.example/mcp');
  });

  it('never from a client: forwarded headers, Host, or a TLS connection of its own', () => {
    assert.equal(front.publicUrl(view(CLIENT, forwarded)), undefined);
    assert.equal(front.publicUrl(view(CLIENT, { host: 'api.example' })), undefined);
    const tls = { encrypted: true, authorized: false };
    assert.equal(front.publicUrl(view(CLIENT, { host: 'api.example' }, tls)), undefined);
    const noSocket: RequestView = { method: 'GET', url: '/', headers: forwarded };
    assert.equal(front.publicUrl(noSocket), undefined);
  });

  it('is undefined when the trusted proxy does not say both scheme and host', () => {
    assert.equal(front.publicUrl(view(PROXY, { host: 'api.example' })), undefined);
    const protoOnly = { 'x-forwarded-proto': 'https', host: 'api.example' };
    assert.equal(front.publicUrl(view(PROXY, protoOnly)), undefined);
    assert.equal(front.publicUrl(view(PROXY, forwarded, {}, '*')), undefined);
  });

  it('comes from publicOrigin when configured, whoever forwards the request', () => {
    const fixed = edge({ publicOrigin: 'https://Public.example', trustedProxies: 'loopback' });
    assert.equal(fixed.publicUrl(view(PROXY, forwarded)), 'https://public.example/mcp');
    assert.equal(
      fixed.publicUrl(view(CLIENT, { host: 'evil.example' })),
      'https://public.example/mcp',
    );
    assert.equal(fixed.publicUrl(view(CLIENT, {}, {}, '*')), undefined);
  });

  it('refuses a bad configuration at start-up', () => {
    assert.throws(() => edge({ publicOrigin: 'https://api.example/v1' }), {
      code: 'VOUCH_ERR_CONFIGURATION',
    });
    assert.throws(() => edge({ trustedProxies: 'proxy.internal' }), {
      code: 'VOUCH_ERR_CONFIGURATION',
    });
  });
});

describe('edge().clientCertificate', () => {
  const pki = testPki();
  const front = edge({ trustedProxies: 'loopback' });
  const tls = (cert: string | undefined, authorized: boolean): Partial<ConnectionView> => ({
    encrypted: true,
    authorized,
    getPeerX509Certificate: () => (cert === undefined ? undefined : new X509Certificate(cert)),
  });
  const header = { 'client-cert': clientCertHeader(pki.client.der) };

  it("from a trusted proxy: its Client-Cert, with the DER's SHA-256 thumbprint", () => {
    const found = front.clientCertificate(view(PROXY, header));
    assert.deepEqual(found, {
      der: new Uint8Array(pki.client.der),
      x5tS256: thumbprint(pki.client.der),
      from: 'proxy',
    });
  });

  it("from a trusted proxy: never the proxy's own TLS certificate", () => {
    assert.equal(
      front.clientCertificate(view(PROXY, {}, tls(pki.otherClient.cert, true))),
      undefined,
    );
    const found = front.clientCertificate(view(PROXY, header, tls(pki.otherClient.cert, true)));
    assert.equal(found !== undefined && 'from' in found && found.from, 'proxy');
  });

  it('from a trusted proxy: a malformed or repeated Client-Cert is unusable', () => {
    for (const value of [
      'MIIB',
      ':not base64:',
      `${header['client-cert']}, ${header['client-cert']}`,
    ]) {
      assert.deepEqual(front.clientCertificate(view(PROXY, { 'client-cert': value })), {
        unusable: 'malformed',
      });
    }
    const twice: RequestView = {
      ...view(PROXY),
      raw: {
        rawHeaders: ['Client-Cert', header['client-cert'], 'client-cert', header['client-cert']],
      },
    };
    assert.deepEqual(front.clientCertificate(twice), { unusable: 'malformed' });
  });

  it('from anyone else: a Client-Cert header is forged, whatever it holds', () => {
    for (const value of [header['client-cert'], 'garbage']) {
      assert.deepEqual(front.clientCertificate(view(CLIENT, { 'client-cert': value })), {
        unusable: 'untrusted-peer',
      });
    }
    assert.deepEqual(edge().clientCertificate(view(PROXY, header)), { unusable: 'untrusted-peer' });
    const noSocket: RequestView = { method: 'GET', url: '/', headers: header };
    assert.deepEqual(front.clientCertificate(noSocket), { unusable: 'untrusted-peer' });
  });

  it('from anyone else: a Client-Cert-Chain is forged too, even beside a verified TLS one', () => {
    const chain = { 'client-cert-chain': clientCertHeader(pki.ca.der) };
    for (const socket of [{}, tls(pki.client.cert, true)]) {
      assert.deepEqual(front.clientCertificate(view(CLIENT, chain, socket)), {
        unusable: 'untrusted-peer',
      });
    }
    assert.deepEqual(front.clientCertificate(view(CLIENT, header, tls(pki.client.cert, true))), {
      unusable: 'untrusted-peer',
    });
    // From the proxy the chain is its word, and only the leaf in Client-Cert is read.
    assert.equal(front.clientCertificate(view(PROXY, chain)), undefined);
  });

  it('from anyone else: the TLS certificate, when the TLS layer verified it', () => {
    const found = front.clientCertificate(view(CLIENT, {}, tls(pki.client.cert, true)));
    assert.deepEqual(found, {
      der: new Uint8Array(pki.client.der),
      x5tS256: thumbprint(pki.client.der),
      from: 'tls',
    });
    assert.deepEqual(front.clientCertificate(view(CLIENT, {}, tls(pki.stranger.cert, false))), {
      unusable: 'unverified',
    });
  });

  it('none: no header, no TLS, or TLS without a certificate', () => {
    assert.equal(front.clientCertificate(view(CLIENT)), undefined);
    assert.equal(front.clientCertificate(view(CLIENT, { 'client-cert': '' })), undefined);
    assert.equal(front.clientCertificate(view(CLIENT, {}, tls(undefined, false))), undefined);
    assert.equal(front.clientCertificate(view(CLIENT, {}, { encrypted: true })), undefined);
    assert.equal(front.clientCertificate(view(PROXY)), undefined);
  });
});
