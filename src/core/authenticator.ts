import { requirePrintable } from './configuration-checks.js';
import type { Outcome, Rejected } from './outcome.js';
import type { RequestView } from './request.js';
import { grantedScopes } from './scopes.js';
import type { SecurityScheme } from './security-scheme.js';

/** Credentials longer than this many characters are refused without calling the hook. */
export const DEFAULT_MAX_CREDENTIAL_LENGTH = 4096;

/** Options every authenticator accepts. */
export interface AuthenticatorOptions {
  /**
   * The OpenAPI security scheme name. Defaults to one derived from the kind and its parameters
   * (`bearerAuth`, `apiKeyHeader_X-API-Key`, …); two different configurations never share one.
   */
  readonly name?: string;
  /** Realm for this authenticator's challenge; defaults to the API-wide realm. */
  readonly realm?: string;
  /**
   * Whether it checks credentials against a store that may not answer (a database, a remote
   * service), its hook then throwing `StoreUnavailableError`: the 503 with `Retry-After` is then
   * documented on the routes it protects. Default `false`; `true` for `SessionAuth` and a
   * `JwtBearer` given a `jwksUrl`.
   */
  readonly consultsStore?: boolean;
}

/**
 * The base of every authenticator: it finds its credential in the request, asks its hook, and
 * describes itself for OpenAPI, so the docs and the enforcement come from one object.
 *
 * @typeParam TAuth - what the hook returns on success; becomes `request.auth`.
 */
export abstract class Authenticator<TAuth = unknown> {
  /** The OpenAPI security scheme name under which this authenticator is documented. */
  readonly schemeName: string;
  /** The realm given to this authenticator, if any. */
  readonly realm: string | undefined;
  /** Whether a store it consults may answer 503 (see {@link AuthenticatorOptions.consultsStore}). */
  readonly consultsStore: boolean;

  constructor(defaultName: string, options: AuthenticatorOptions = {}) {
    this.schemeName = options.name ?? defaultName;
    if (options.realm !== undefined) requirePrintable(options.realm, 'realm');
    this.realm = options.realm;
    this.consultsStore = options.consultsStore ?? false;
  }

  /** The OpenAPI Security Scheme this authenticator enforces, or `undefined` when undocumented. */
  abstract get securityScheme(): SecurityScheme | undefined;

  /** Whether the credential rides in a cookie (a browser sends it by itself, so CSRF applies). */
  get cookieBased(): boolean {
    return false;
  }

  /**
   * Whether the replies to requests it accepts are marked `Cache-Control: private`: shared caches
   * leave `Authorization` alone (RFC 9111 §3.5), but not a cookie, an API key, a client
   * certificate or whatever a custom function reads.
   */
  get privateResponses(): boolean {
    return this.cookieBased;
  }

  /**
   * Whether the request says what this authenticator knows to be false, so that nothing may
   * accept it (a client certificate its edge cannot use: a `Client-Cert` from no trusted proxy).
   * Where defined, it is asked before any member of the operation's `auth` runs, wherever this
   * one stands in it: `false` trusts the request; `true` refuses it, 401 with the challenges of
   * every member as when none found a credential; a refusal (`REJECTED`, `refusal(…)`) refuses
   * it and a credential of this one's own that it carries, which this one's challenge then says
   * (a Bearer's `error="invalid_token"`). One that distrusts a request never accepts it either.
   */
  distrusts?(request: RequestView): boolean | Rejected;

  /** Whether it reads one credential from the request, so that sending it twice answers 400. */
  get readsCredential(): boolean {
    return false;
  }

  /**
   * The `WWW-Authenticate` challenge for a 401, or `undefined` for none.
   * @param realm - the realm in force (this authenticator's own, else the API's).
   * @param rejected - whether a credential was presented and refused.
   * @param scopes - the scopes the operation requires, for a challenge that names them.
   * @param error - the reason a refusal named (`Rejected#error`), for a challenge that says it.
   */
  /* eslint-disable @typescript-eslint/no-unused-vars -- the base sends none; subclasses use them */
  challenge(
    realm: string,
    rejected: boolean,
    scopes?: readonly string[],
    error?: string,
  ): string | undefined {
    return undefined;
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */

  /**
   * The `WWW-Authenticate` challenge for a 403 when a credential it accepted lacks `scopes`, or
   * `undefined` for none (Bearer has one, RFC 6750 §3.1, and so do schemes modelled on it, DPoP's).
   */
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the base sends none; subclasses use both
  scopeChallenge(realm: string, scopes: readonly string[]): string | undefined {
    return undefined;
  }

  /**
   * The `WWW-Authenticate` challenge for a 400 on a credential it found ambiguous, or `undefined`
   * for none (Bearer has one, RFC 6750 §3.1 `invalid_request`, and so do schemes modelled on it).
   */
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the base sends none
  badRequestChallenge(realm: string): string | undefined {
    return undefined;
  }

  /**
   * The scopes that a value it accepted grants (see {@link grantedScopes}: `scopes`, `scope` or
   * `scp`). Override it where your values keep their scopes elsewhere.
   */
  scopesOf(value: TAuth): readonly string[] {
    return grantedScopes(value);
  }

  /**
   * Finds the credential, runs the hook and judges its result. Never throws for bad input;
   * errors thrown by the hook itself propagate to the API's exception handlers. Answers
   * synchronously when nothing had to be awaited (no credential, a synchronous hook), so such a
   * request costs no promise; await it either way.
   */
  abstract verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>>;
}

/** Quotes a value for an auth-param (RFC 9110 §5.6.4 quoted-string). */
export function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}
