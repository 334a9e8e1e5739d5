import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestView } from '../core/request.js';
import type { FoundCertificate } from './client-certificate.js';
import { presentsUnusableCertificate } from './presents-unusable-certificate.js';

const request: RequestView = { method: 'GET', url: '/', headers: {} };
const source = (found: FoundCertificate) => ({ clientCertificate: () => found });

describe('presentsUnusableCertificate', () => {
  it('is true for a certificate the edge cannot use, whatever the reason', () => {
    for (const reason of ['untrusted-peer', 'malformed', 'unverified'] as const) {
      assert.equal(presentsUnusableCertificate(source({ unusable: reason }), request), true);
    }
  });

  it('is false for a usable certificate, or none', () => {
    const certificate = { der: new Uint8Array([1]), x5tS256: 'thumbprint', from: 'tls' } as const;
    assert.equal(presentsUnusableCertificate(source(certificate), request), false);
    assert.equal(presentsUnusableCertificate(source(undefined), request), false);
  });
});
