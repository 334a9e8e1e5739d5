import { DEFAULT_MAX_CREDENTIAL_LENGTH, quote } from '../core/authenticator.js';
import type { AuthenticatorOptions } from '../core/authenticator.js';
import { CredentialAuthenticator } from '../core/credential-authenticator.js';
import { AMBIGUOUS, REJECTED } from '../core/outcome.js';
import type { Awaitable, Extraction, Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { schemeNamePart } from '../core/configuration-checks.js';
import { queryParam } from '../internal/read-once.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';
import { secretsOrHook, type StaticEntries } from '../internal/static-credentials.js';
import { authorizationCredentials, isB64token } from './authorization.js';
import { metadataParam, scopeParam } from './bearer-params.js';

/** The Bearer hook: resolve a token to the caller, or return nothing to reject. */
export type BearerHook<TAuth> = (request: AuthRequest, token: string) => Awaitable<TAuth | Nothing>;

/** Options of {@link HttpBearer}. */
export interface HttpBearerOptions<TAuth> extends AuthenticatorOptions {
  /** Resolves the token; alternatively override `authenticate` in a subclass, or give `tokens`. */
  readonly authenticate?: BearerHook<TAuth>;
  /**
   * Tokens known in advance (from configuration), each with what it authenticates as, checked in
   * constant time instead of by a hook: `new Map([[process.env.CI_TOKEN, { client: 'ci' }]])`.
   * Each must be a `b64token` no longer than `maxLength`.
   */
  readonly tokens?: StaticEntries<TAuth>;
  /** Longest token accepted, in characters (default 4096). */
  readonly maxLength?: number;
  /** Documented `bearerFormat`, e.g. `JWT`. */
  readonly bearerFormat?: string;
  /** Documented description of the scheme. */
  readonly description?: string;
  /**
   * The OAuth protected resource whose access tokens it accepts: its challenges then point to
   * the resource's metadata (RFC 9728 §5.1), and the routes it protects add their scopes to it.
   */
  readonly resource?: ProtectedResource | undefined;
}

/**
 * HTTP Bearer authentication (RFC 6750): reads `Authorization: Bearer <token>` and passes the
 * token to `authenticate(request, token)`, or checks it against static `tokens`. Tokens that are
 * not a `b64token` are refused unheard. A token in the header beside an `access_token` query
 * parameter is ambiguous (400, RFC 6750 §2: one method per request); the query parameter alone
 * is never a credential.
 *
 * @example
 * const bearer = new HttpBearer({ authenticate: (request, token) => sessions.byToken(token) });
 * const service = new HttpBearer({ tokens: new Map([[process.env.CI_TOKEN, { client: 'ci' }]]) });
 */
export class HttpBearer<TAuth = unknown> extends CredentialAuthenticator<string, TAuth> {
  readonly #check: BearerHook<TAuth>;
  readonly #maxLength: number;
  readonly #scheme: SecurityScheme;
  /** The protected resource whose tokens it accepts, if any. */
  readonly resource: ProtectedResource | undefined;

  constructor(options: HttpBearerOptions<TAuth> = {}) {
    super(
      options.bearerFormat ? `bearerAuth_${schemeNamePart(options.bearerFormat)}` : 'bearerAuth',
      options,
    );
    this.#maxLength = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
    this.resource = options.resource;
    this.#check = secretsOrHook('HttpBearer', 'tokens', {
      hook: options.authenticate,
      secrets: options.tokens,
      overridden: this.authenticate !== HttpBearer.prototype.authenticate,
      maxLength: this.#maxLength,
      malformed: (token) =>
        isB64token(token)
          ? undefined
          : 'is not an RFC 6750 b64token, so no request could present it',
    });
    this.#scheme = {
      type: 'http',
      scheme: 'bearer',
      ...(options.bearerFormat === undefined ? {} : { bearerFormat: options.bearerFormat }),
      ...(options.description === undefined ? {} : { description: options.description }),
    };
  }

  /** Resolves a token to the caller; returns `undefined`, `null` or `false` to reject. */
  authenticate(request: AuthRequest, token: string): Awaitable<TAuth | Nothing> {
    return this.#check(request, token);
  }

  /**
   * The token of `Authorization: Bearer <token>`, a `b64token` of at most `maxLength` characters.
   * One sent with an `access_token` query parameter beside it is ambiguous.
   */
  protected override extract(request: RequestView): Extraction<string> {
    const found = authorizationCredentials(request, 'bearer', this.#maxLength);
    if (found.state === 'absent' || found.state === 'ambiguous') return found;
    // RFC 6750 §2: a client uses one method per request. A token in the query as well may be
    // the one a proxy or a log reads, so neither wins, whatever the header's token is worth. The
    // strict reader decodes the name (`acc%65ss_token`) and takes an empty value as absent.
    if (queryParam(request.url, 'access_token').state !== 'absent') return AMBIGUOUS;
    return found.state === 'present' && !isB64token(found.credential) ? REJECTED : found;
  }

  protected override invoke(request: AuthRequest, token: string): Awaitable<TAuth | Nothing> {
    return this.authenticate(request, token);
  }

  override get securityScheme(): SecurityScheme {
    return this.#scheme;
  }

  /**
   * `Bearer realm="…"`, with `error="invalid_token"` for a token refused. Under a protected
   * resource it also names the scopes the operation requires and the resource's metadata
   * (RFC 9728 §5.1), so that a client learns where to get a token and for what.
   */
  override challenge(realm: string, rejected: boolean, scopes: readonly string[] = []): string {
    const error = rejected ? ', error="invalid_token"' : '';
    const scope = this.resource === undefined ? '' : scopeParam(scopes);
    return `Bearer realm=${quote(realm)}${error}${scope}${metadataParam(this.resource)}`;
  }

  override badRequestChallenge(realm: string): string {
    return `Bearer realm=${quote(realm)}, error="invalid_request"${metadataParam(this.resource)}`;
  }

  /** `error="insufficient_scope"` naming every scope the call needs (RFC 6750 §3.1). */
  override scopeChallenge(realm: string, scopes: readonly string[]): string {
    const needed = scopeParam(scopes);
    const metadata = metadataParam(this.resource);
    return `Bearer realm=${quote(realm)}, error="insufficient_scope"${needed}${metadata}`;
  }
}
