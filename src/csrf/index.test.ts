import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as csrf from './index.js';

describe('vouch/csrf', () => {
  it('names exactly the public runtime exports', () => {
    assert.deepEqual(Object.keys(csrf).sort(), [
      'clearCsrfCookie',
      'createCsrfVerifier',
      'csrfCookie',
      'isTrustedOrigin',
      'issueCsrfToken',
      'normalizeOrigins',
      'verifyCsrfToken',
    ]);
  });

  it('works end to end through the public entry point', () => {
    const protection = csrf.createCsrfVerifier({
      secret: 'secret',
      trustedOrigins: ['https://app.example.com'],
    });
    const { token } = protection.issue('session');
    const verdict: csrf.CsrfVerdict = protection.verify(
      {
        method: 'POST',
        url: '/',
        headers: {
          origin: 'https://app.example.com',
          cookie: `csrftoken=${token}`,
          'x-csrftoken': token,
        },
      },
      'session',
    );
    assert.equal(verdict, 'pass');
  });
});
