import { Authenticator, DEFAULT_MAX_CREDENTIAL_LENGTH, quote } from '../core/authenticator.js';
import type { AuthenticatorOptions } from '../core/authenticator.js';
import { AMBIGUOUS, judgeHook, REJECTED } from '../core/outcome.js';
import type { Awaitable, Nothing, Outcome } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requireHookOrSecrets, schemeNamePart } from '../core/configuration-checks.js';
import { queryParam } from '../internal/query-param.js';
import { StaticCredentials, type StaticEntries } from '../internal/static-credentials.js';
import { authorizationCredentials } from './authorization-credentials.js';
import { isB64token } from './is-b64token.js';

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
export class HttpBearer<TAuth = unknown> extends Authenticator<TAuth> {
  readonly #hook: BearerHook<TAuth> | undefined;
  readonly #tokens: StaticCredentials<TAuth> | undefined;
  readonly #maxLength: number;
  readonly #scheme: SecurityScheme;

  constructor(options: HttpBearerOptions<TAuth> = {}) {
    super(
      options.bearerFormat ? `bearerAuth_${schemeNamePart(options.bearerFormat)}` : 'bearerAuth',
      options,
    );
    requireHookOrSecrets(
      'HttpBearer',
      'tokens',
      options.authenticate !== undefined,
      this.authenticate !== HttpBearer.prototype.authenticate,
      options.tokens !== undefined,
    );
    this.#hook = options.authenticate;
    this.#maxLength = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
    const maxLength = this.#maxLength;
    if (options.tokens !== undefined) {
      this.#tokens = new StaticCredentials('HttpBearer tokens', options.tokens, (token) => {
        if (!isB64token(token))
          return 'is not an RFC 6750 b64token, so no request could present it';
        if (token.length > maxLength) return `is longer than maxLength (${String(maxLength)})`;
        return undefined;
      });
    }
    this.#scheme = {
      type: 'http',
      scheme: 'bearer',
      ...(options.bearerFormat === undefined ? {} : { bearerFormat: options.bearerFormat }),
      ...(options.description === undefined ? {} : { description: options.description }),
    };
  }

  /** Resolves a token to the caller; returns `undefined`, `null` or `false` to reject. */
  authenticate(request: AuthRequest, token: string): Awaitable<TAuth | Nothing> {
    if (this.#tokens !== undefined) return this.#tokens.lookup(token);
    // requireHookOrSecrets guarantees a hook whenever this base method is the one in force
    // without tokens.
    return (this.#hook as BearerHook<TAuth>)(request, token);
  }

  /**
   * Reads `Authorization: Bearer <token>` and asks the hook (or the static tokens) about it. A
   * token that is not a `b64token` is refused unheard; one sent with an `access_token` query
   * parameter beside it is ambiguous, and the hook is not called.
   */
  override verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>> {
    const found = authorizationCredentials(request, 'bearer', this.#maxLength);
    if (found.state === 'absent' || found.state === 'ambiguous') return found;
    // RFC 6750 §2: a client uses one method per request. A token in the query as well may be
    // the one a proxy or a log reads, so neither wins, whatever the header's token is worth. The
    // strict reader decodes the name (`acc%65ss_token`) and takes an empty value as absent.
    if (queryParam(request.url, 'access_token').state !== 'absent') return AMBIGUOUS;
    if (found.state !== 'present') return found;
    const token = found.credential;
    if (!isB64token(token)) return REJECTED;
    // The adapter passes its own request object, which is the registered AuthRequest type.
    return judgeHook(this.authenticate(request as AuthRequest, token));
  }

  override get securityScheme(): SecurityScheme {
    return this.#scheme;
  }

  override challenge(realm: string, rejected: boolean): string {
    const base = `Bearer realm=${quote(realm)}`;
    return rejected ? `${base}, error="invalid_token"` : base;
  }

  override badRequestChallenge(realm: string): string {
    return `Bearer realm=${quote(realm)}, error="invalid_request"`;
  }

  override scopeChallenge(realm: string, scopes: readonly string[]): string {
    return `Bearer realm=${quote(realm)}, error="insufficient_scope", scope=${quote(scopes.join(' '))}`;
  }

  override get readsCredential(): boolean {
    return true;
  }
}
