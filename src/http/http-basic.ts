import { DEFAULT_MAX_CREDENTIAL_LENGTH, quote } from '../core/authenticator.js';
import type { AuthenticatorOptions } from '../core/authenticator.js';
import { CredentialAuthenticator } from '../core/credential-authenticator.js';
import { REJECTED } from '../core/outcome.js';
import type { Awaitable, Extraction, Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requireHook } from '../core/configuration-checks.js';
import { authorizationCredentials } from './authorization.js';
import { parseBasicCredentials, type BasicCredentials } from './parse-basic-credentials.js';

/** The Basic hook: check a username and password, or return nothing to reject. */
export type BasicHook<TAuth> = (
  request: AuthRequest,
  username: string,
  password: string,
) => Awaitable<TAuth | Nothing>;

/** Options of {@link HttpBasic}. */
export interface HttpBasicOptions<TAuth> extends AuthenticatorOptions {
  /** Checks the credentials; alternatively override `authenticate` in a subclass. */
  readonly authenticate?: BasicHook<TAuth>;
  /** Longest encoded credential accepted, in characters (default 4096). */
  readonly maxLength?: number;
  /** Documented description of the scheme. */
  readonly description?: string;
}

/**
 * HTTP Basic authentication (RFC 7617): decodes `Authorization: Basic <base64(user:pass)>`
 * strictly and passes both parts to `authenticate(request, username, password)`.
 *
 * @example
 * const basic = new HttpBasic({ authenticate: (request, user, pass) => users.check(user, pass) });
 */
export class HttpBasic<TAuth = unknown> extends CredentialAuthenticator<BasicCredentials, TAuth> {
  readonly #hook: BasicHook<TAuth> | undefined;
  readonly #maxLength: number;
  readonly #scheme: SecurityScheme;

  constructor(options: HttpBasicOptions<TAuth> = {}) {
    super('basicAuth', options);
    requireHook(
      'HttpBasic',
      options.authenticate !== undefined,
      this.authenticate !== HttpBasic.prototype.authenticate,
    );
    this.#hook = options.authenticate;
    this.#maxLength = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
    this.#scheme = {
      type: 'http',
      scheme: 'basic',
      ...(options.description === undefined ? {} : { description: options.description }),
    };
  }

  /** Checks a username and password; returns `undefined`, `null` or `false` to reject. */
  authenticate(
    request: AuthRequest,
    username: string,
    password: string,
  ): Awaitable<TAuth | Nothing> {
    return (this.#hook as BasicHook<TAuth>)(request, username, password);
  }

  /** The username and password of `Authorization: Basic <token68>`, decoded strictly. */
  protected override extract(request: RequestView): Extraction<BasicCredentials> {
    const found = authorizationCredentials(request, 'basic', this.#maxLength);
    if (found.state !== 'present') return found;
    const credentials = parseBasicCredentials(found.credential);
    return credentials === undefined ? REJECTED : { state: 'present', credential: credentials };
  }

  protected override invoke(
    request: AuthRequest,
    { username, password }: BasicCredentials,
  ): Awaitable<TAuth | Nothing> {
    return this.authenticate(request, username, password);
  }

  override get securityScheme(): SecurityScheme {
    return this.#scheme;
  }

  override challenge(realm: string): string {
    return `Basic realm=${quote(realm)}, charset="UTF-8"`;
  }
}
