import { quote, type AuthenticatorOptions } from '../core/authenticator.js';
import {
  CredentialAuthenticator,
  DEFAULT_MAX_CREDENTIAL_LENGTH,
} from '../core/credential-authenticator.js';
import { REJECTED, type Awaitable, type Extraction, type Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requireHook, schemeNamePart } from '../internal/hook.js';
import { singleHeaderValue } from '../internal/single-header.js';
import { credentialsIn } from './authorization-credentials.js';

// A header whose credentials were found is `Bearer`, spaces and the token: the token is a
// b64token (as `isB64token` decides) exactly when the whole header matches this. One expression
// over the header as parsed costs less inside a server than one over the token sliced from it.
const BEARER_B64TOKEN = /^[Bb][Ee][Aa][Rr][Ee][Rr] +[A-Za-z0-9\-._~+/]+=*$/;

/** The Bearer hook: resolve a token to the caller, or return nothing to reject. */
export type BearerHook<TAuth> = (request: AuthRequest, token: string) => Awaitable<TAuth | Nothing>;

/** Options of {@link HttpBearer}. */
export interface HttpBearerOptions<TAuth> extends AuthenticatorOptions {
  /** Resolves the token; alternatively override `authenticate` in a subclass. */
  readonly authenticate?: BearerHook<TAuth>;
  /** Longest token accepted, in characters (default 4096). */
  readonly maxLength?: number;
  /** Documented `bearerFormat`, e.g. `JWT`. */
  readonly bearerFormat?: string;
  /** Documented description of the scheme. */
  readonly description?: string;
}

/**
 * HTTP Bearer authentication (RFC 6750): reads `Authorization: Bearer <token>` and passes the
 * token to `authenticate(request, token)`. Tokens that are not a `b64token` are refused unheard.
 *
 * @example
 * const bearer = new HttpBearer({ authenticate: (request, token) => tokens.get(token) });
 */
export class HttpBearer<TAuth = unknown> extends CredentialAuthenticator<string, TAuth> {
  readonly #hook: BearerHook<TAuth> | undefined;
  readonly #maxLength: number;
  readonly #scheme: SecurityScheme;

  constructor(options: HttpBearerOptions<TAuth> = {}) {
    super(
      options.bearerFormat ? `bearerAuth_${schemeNamePart(options.bearerFormat)}` : 'bearerAuth',
      options,
    );
    requireHook(
      'HttpBearer',
      options.authenticate !== undefined,
      this.authenticate !== HttpBearer.prototype.authenticate,
    );
    this.#hook = options.authenticate;
    this.#maxLength = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
    this.#scheme = {
      type: 'http',
      scheme: 'bearer',
      ...(options.bearerFormat === undefined ? {} : { bearerFormat: options.bearerFormat }),
      ...(options.description === undefined ? {} : { description: options.description }),
    };
  }

  /** Resolves a token to the caller; returns `undefined`, `null` or `false` to reject. */
  authenticate(request: AuthRequest, token: string): Awaitable<TAuth | Nothing> {
    // requireHook guarantees a hook whenever this base method is the one in force.
    return (this.#hook as BearerHook<TAuth>)(request, token);
  }

  override get securityScheme(): SecurityScheme {
    return this.#scheme;
  }

  override challenge(realm: string, rejected: boolean): string {
    const base = `Bearer realm=${quote(realm)}`;
    return rejected ? `${base}, error="invalid_token"` : base;
  }

  protected override extract(request: RequestView): Extraction<string> {
    const value = singleHeaderValue(request, 'authorization', 'Authorization');
    if (typeof value !== 'string') return value;
    const found = credentialsIn(value, 'bearer', this.#maxLength);
    if (found.state !== 'present') return found;
    return BEARER_B64TOKEN.test(value) ? found : REJECTED;
  }

  protected override invoke(request: AuthRequest, token: string): Awaitable<TAuth | Nothing> {
    return this.authenticate(request, token);
  }
}
