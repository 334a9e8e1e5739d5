import { quote, type AuthenticatorOptions } from '../core/authenticator.js';
import {
  CredentialAuthenticator,
  DEFAULT_MAX_CREDENTIAL_LENGTH,
} from '../core/credential-authenticator.js';
import { REJECTED, type Awaitable, type Extraction, type Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requireHook, schemeNamePart } from '../internal/hook.js';
import { authorizationCredentials } from './authorization-credentials.js';
import { isB64token } from './is-b64token.js';

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
    const found = authorizationCredentials(request, 'bearer', this.#maxLength, 'Bearer');
    if (found.state !== 'present') return found;
    return isB64token(found.credential) ? found : REJECTED;
  }

  protected override invoke(request: AuthRequest, token: string): Awaitable<TAuth | Nothing> {
    return this.authenticate(request, token);
  }
}
