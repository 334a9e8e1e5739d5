// How a token check learns the request's certificate; test/spec/rfc8705-mtls.test.ts runs it with
// oidc-provider's certificate-bound tokens over real TLS.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthRequest } from '../core/request.js';
import type { FoundCertificate } from '../edge/client-certificate.js';
import type { Possession } from './confirmation.js';
import { provingCertificate } from './certificate-possession.js';

// Its hooks' request type, which the Fastify adapter registers; the check reads nothing of it.
const request = { method: 'GET', url: '/', headers: {} } as unknown as AuthRequest;
const certificate = { der: new Uint8Array([1]), x5tS256: 'thumbprint', from: 'tls' } as const;

/** A check that records what it was given, and accepts. */
function recording() {
  const given: (Possession | undefined)[] = [];
  const check = (_request: unknown, _token: string, possession?: Possession) => {
    given.push(possession);
    return 'accepted';
  };
  return { given, check };
}

const source = (found: FoundCertificate) => ({ clientCertificate: () => found });

describe('provingCertificate', () => {
  it("adds the certificate's thumbprint to what the request proved", () => {
    const { given, check } = recording();
    const proving = provingCertificate(check, source(certificate));
    assert.equal(proving(request, 't'), 'accepted');
    assert.equal(proving(request, 't', { jkt: 'key' }), 'accepted');
    assert.deepEqual(given, [{ x5tS256: 'thumbprint' }, { jkt: 'key', x5tS256: 'thumbprint' }]);
  });

  it('refuses a request whose certificate is unusable, without checking the token', () => {
    const { given, check } = recording();
    for (const reason of ['untrusted-peer', 'malformed', 'unverified'] as const) {
      assert.equal(
        provingCertificate(check, source({ unusable: reason }))(request, 't'),
        undefined,
      );
    }
    assert.deepEqual(given, []);
  });

  it('proves nothing more without a certificate, or without a source', () => {
    const { given, check } = recording();
    provingCertificate(check, source(undefined))(request, 't', { jkt: 'key' });
    assert.equal(provingCertificate(check, undefined), check);
    assert.deepEqual(given, [{ jkt: 'key' }]);
  });
});
