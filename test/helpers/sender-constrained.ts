// Stand-ins for the sender-constrained authenticators of issue #28 until they land on main: a DPoP
// one (RFC 9449), documented as { type: 'http', scheme: 'DPoP' } and challenging as Bearer does,
// and a client-certificate one (RFC 8705), documented as { type: 'mutualTLS' }. The tests that use
// them build them through `dpopAuthenticator` and `certificateAuthenticator` only, so that
// switching to the real classes is a change to those two functions.
import { createHash } from 'node:crypto';
import {
  calculateJwkThumbprint,
  createRemoteJWKSet,
  EmbeddedJWK,
  jwtVerify,
  type JWTPayload,
} from 'jose';
import { Authenticator, quote, type AuthenticatorOptions } from '../../src/core/authenticator.js';
import { ABSENT, REJECTED, type Outcome } from '../../src/core/outcome.js';
import type { RequestView } from '../../src/core/request.js';
import type { SecurityScheme } from '../../src/core/security-scheme.js';
import { authorizationCredentials } from '../../src/http/authorization.js';
import { singleHeaderValue } from '../../src/internal/read-once.js';

/** What the DPoP stand-in checks tokens and proofs against. */
export interface DpopOptions extends AuthenticatorOptions {
  /** The authorization server whose JWT access tokens (`typ: at+jwt`) it accepts. */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly audience: string;
  /** The origin requests are addressed to, for `htu` (scheme, host and port). */
  readonly publicOrigin: string;
}

/** Seconds a proof's `iat` may be away from now. */
const IAT_WINDOW = 60;

/**
 * A DPoP-bound JWT access token and its proof, checked as RFC 9449 §4.3 says with jose: one
 * `DPoP` header, `typ: dpop+jwt`, ES256, the embedded `jwk`'s thumbprint equal to the token's
 * `cnf.jkt`, `htm`, `htu`, `ath`, `iat` within a minute and an unseen `jti`. Its value is the
 * token's claims.
 */
class StandInDpop extends Authenticator<JWTPayload> {
  readonly #options: DpopOptions;
  readonly #keys: ReturnType<typeof createRemoteJWKSet>;
  readonly #seen = new Set<string>();

  constructor(options: DpopOptions) {
    super('dpopAuth', options);
    this.#options = options;
    this.#keys = createRemoteJWKSet(new URL(options.jwksUri));
  }

  override get securityScheme(): SecurityScheme {
    return { type: 'http', scheme: 'DPoP' };
  }

  override get readsCredential(): boolean {
    return true;
  }

  override challenge(realm: string, rejected: boolean): string {
    const error = rejected ? ', error="invalid_token"' : '';
    return `DPoP realm=${quote(realm)}${error}, algs="ES256"`;
  }

  override badRequestChallenge(realm: string): string {
    return `DPoP realm=${quote(realm)}, error="invalid_request", algs="ES256"`;
  }

  override scopeChallenge(realm: string, scopes: readonly string[]): string {
    return `DPoP realm=${quote(realm)}, error="insufficient_scope", scope=${quote(scopes.join(' '))}, algs="ES256"`;
  }

  override verify(request: RequestView): Outcome<JWTPayload> | Promise<Outcome<JWTPayload>> {
    const found = authorizationCredentials(request, 'dpop', 4096);
    if (found.state !== 'present') return found;
    const proof = singleHeaderValue(request, 'dpop', 'DPoP');
    if (typeof proof !== 'string') return REJECTED;
    return this.#check(request, found.credential, proof).catch(() => REJECTED);
  }

  async #check(request: RequestView, token: string, proof: string): Promise<Outcome<JWTPayload>> {
    const { payload: claims, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: ['ES256'],
    });
    const path = request.url.split('?')[0];
    const now = Math.floor(Date.now() / 1000);
    const ath = createHash('sha256').update(token).digest('base64url');
    const fresh = typeof claims.iat === 'number' && Math.abs(now - claims.iat) <= IAT_WINDOW;
    if (
      claims['htm'] !== request.method ||
      claims['htu'] !== `${this.#options.publicOrigin}${path}` ||
      claims['ath'] !== ath ||
      !fresh ||
      typeof claims.jti !== 'string' ||
      this.#seen.has(claims.jti)
    ) {
      return REJECTED;
    }
    this.#seen.add(claims.jti);
    const { payload } = await jwtVerify(token, this.#keys, {
      issuer: this.#options.issuer,
      audience: this.#options.audience,
      typ: 'at+jwt',
    });
    const jkt = await calculateJwkThumbprint(protectedHeader.jwk!);
    const cnf = payload['cnf'] as { jkt?: unknown } | undefined;
    return cnf?.jkt === jkt ? { state: 'accepted', value: payload } : REJECTED;
  }
}

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

/** The DPoP authenticator of the tests (a stand-in until `DPoPBearer` is on main). */
export function dpopAuthenticator(options: DpopOptions): Authenticator<JWTPayload> {
  return new StandInDpop(options);
}

/** The client-certificate authenticator of the tests (a stand-in until the real one is on main). */
export function certificateAuthenticator(options?: AuthenticatorOptions): Authenticator<string> {
  return new StandInCertificate(options);
}
