import { ConfigurationError } from '../core/errors.js';
import { checkScopes } from '../core/scopes.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requirePrintable } from '../core/configuration-checks.js';
import { HttpBearer, type HttpBearerOptions } from './http-bearer.js';

/** Options of {@link OAuth2PasswordBearer}. */
export interface OAuth2PasswordBearerOptions<TAuth> extends Omit<
  HttpBearerOptions<TAuth>,
  'bearerFormat'
> {
  /** Where clients exchange a username and password for a token (RFC 6749 §4.3). */
  readonly tokenUrl: string;
  /** The scopes a token may carry, each with the description the docs page shows. */
  readonly scopes?: Readonly<Record<string, string>>;
}

/**
 * HTTP Bearer authentication, documented as an OAuth2 password flow (RFC 6749 §4.3): the docs
 * page's Authorize button asks for a username and password, gets a token from `tokenUrl` and
 * sends it as `Authorization: Bearer <token>`. It verifies tokens exactly as {@link HttpBearer}
 * does; issuing them at `tokenUrl` is the application's.
 *
 * @example
 * const oauth2 = new OAuth2PasswordBearer({
 *   tokenUrl: '/api/token',
 *   scopes: { 'pets:read': 'Read your pets' },
 *   authenticate: (_request, token) => tokens.find(token),
 * });
 */
export class OAuth2PasswordBearer<TAuth = unknown> extends HttpBearer<TAuth> {
  readonly #scheme: SecurityScheme;

  constructor(options: OAuth2PasswordBearerOptions<TAuth>) {
    super({ ...options, name: options.name ?? 'oauth2Password' });
    if (options.tokenUrl === '') {
      throw new ConfigurationError('OAuth2PasswordBearer: tokenUrl must be a non-empty URL');
    }
    requirePrintable(options.tokenUrl, 'OAuth2PasswordBearer: tokenUrl');
    const scopes = options.scopes ?? {};
    const names = Object.keys(scopes);
    if (names.length > 0) checkScopes(names, 'OAuth2PasswordBearer');
    this.#scheme = {
      type: 'oauth2',
      flows: { password: { tokenUrl: options.tokenUrl, scopes: { ...scopes } } },
      ...(options.description === undefined ? {} : { description: options.description }),
    };
  }

  override get securityScheme(): SecurityScheme {
    return this.#scheme;
  }
}
