// A stand-in for the client-certificate authenticator of issue #28 (RFC 8705) until it lands on
// main, documented as { type: 'mutualTLS' }. The tests that use it build it through
// `certificateAuthenticator` only, so that switching to the real class is a change to that one
// function. (DPoP's tests use the real `DPoPBearer`.)
import { createHash } from 'node:crypto';
import { Authenticator, type AuthenticatorOptions } from '../../src/core/authenticator.js';
import { ABSENT, type Outcome } from '../../src/core/outcome.js';
import type { RequestView } from '../../src/core/request.js';
import type { SecurityScheme } from '../../src/core/security-scheme.js';

/**
 * A TLS client certificate verified by this process (`requestCert`, `ca`): its value is the
 * certificate's SHA-256 thumbprint. No challenge: the credential is not sent in HTTP.
 */
class StandInCertificate extends Authenticator<string> {
  constructor(options: AuthenticatorOptions = {}) {
    super('clientCertificate', options);
  }

  override get securityScheme(): SecurityScheme {
    return { type: 'mutualTLS' };
  }

  override verify(request: RequestView): Outcome<string> {
    const socket = request.socket;
    const certificate = socket?.authorized === true ? socket.getPeerX509Certificate?.() : undefined;
    if (certificate === undefined) return ABSENT;
    return {
      state: 'accepted',
      value: createHash('sha256').update(certificate.raw).digest('base64url'),
    };
  }
}

/** The client-certificate authenticator of the tests (a stand-in until the real one is on main). */
export function certificateAuthenticator(options?: AuthenticatorOptions): Authenticator<string> {
  return new StandInCertificate(options);
}
