import { DEFAULT_MAX_CREDENTIAL_LENGTH } from '../core/authenticator.js';
import type { AuthenticatorOptions } from '../core/authenticator.js';
import { CredentialAuthenticator } from '../core/credential-authenticator.js';
import { withinLength } from '../core/outcome.js';
import type { Awaitable, Extraction, Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requirePrintable, requireToken, schemeNamePart } from '../core/configuration-checks.js';
import { readCookie } from '../internal/read-once.js';
import type { SessionStore } from './session-store.js';

/** Options of {@link SessionAuth}. */
export interface SessionAuthOptions<TUser> extends AuthenticatorOptions {
  /** Where sessions live. */
  readonly store: SessionStore<TUser>;
  /** The session cookie's name (default `sessionid`). */
  readonly cookieName?: string;
  /** Documented description of the scheme. */
  readonly description?: string;
  /** A `WWW-Authenticate` challenge to send when no session is found (none by default). */
  readonly challenge?: string;
}

/**
 * Session-cookie authentication: resolves the `sessionid` cookie to its user through a
 * {@link SessionStore}. Cookie-based, so CSRF protection applies to unsafe methods; the CSRF token
 * is bound to the session id.
 *
 * @example new SessionAuth({ store: new MemorySessionStore<User>() })
 */
export class SessionAuth<TUser = unknown> extends CredentialAuthenticator<string, TUser> {
  /** The session cookie's name. */
  readonly cookieName: string;
  /** The store sessions are resolved through. */
  readonly store: SessionStore<TUser>;
  readonly #description: string | undefined;
  readonly #challenge: string | undefined;

  constructor(options: SessionAuthOptions<TUser>) {
    const cookieName = options.cookieName ?? 'sessionid';
    super(
      cookieName === 'sessionid' ? 'sessionAuth' : `sessionAuth_${schemeNamePart(cookieName)}`,
      // A session store may fail (StoreUnavailableError); one that never does can say so.
      { ...options, consultsStore: options.consultsStore ?? true },
    );
    requireToken(cookieName, 'SessionAuth cookieName');
    this.cookieName = cookieName;
    this.store = options.store;
    this.#description = options.description;
    if (options.challenge !== undefined) requirePrintable(options.challenge, 'challenge');
    this.#challenge = options.challenge;
  }

  override challenge(): string | undefined {
    return this.#challenge;
  }

  /**
   * The session id the request carries, read as this authenticator reads it (raw, and only when
   * the cookie is sent once), for a sign-out to destroy; `undefined` when there is none.
   */
  sessionIdOf(request: RequestView): string | undefined {
    const found = this.extract(request);
    return found.state === 'present' ? found.credential : undefined;
  }

  /** Resolves a session id to its user; override to add checks. */
  authenticate(request: AuthRequest, sessionId: string): Awaitable<TUser | Nothing> {
    return this.store.get(sessionId);
  }

  /** The session id: the session cookie's value, sent once, of at most 4096 characters. */
  protected override extract(request: RequestView): Extraction<string> {
    return withinLength(
      readCookie(request.headers, this.cookieName),
      DEFAULT_MAX_CREDENTIAL_LENGTH,
    );
  }

  protected override invoke(request: AuthRequest, sessionId: string): Awaitable<TUser | Nothing> {
    return this.authenticate(request, sessionId);
  }

  /** A CSRF token is bound to the session id. */
  protected override csrfBinding(sessionId: string): string {
    return sessionId;
  }

  override get cookieBased(): boolean {
    return true;
  }

  override get securityScheme(): SecurityScheme {
    return {
      type: 'apiKey',
      in: 'cookie',
      name: this.cookieName,
      ...(this.#description === undefined ? {} : { description: this.#description }),
    };
  }
}
