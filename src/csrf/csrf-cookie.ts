import { serialize, type SerializeOptions } from 'cookie';
import { ConfigurationError } from '../core/errors.js';

/** Attributes of the CSRF cookie. */
export interface CsrfCookieOptions {
  /** The cookie's name (default `csrftoken`). */
  readonly name?: string;
  /** Send it over HTTPS only (default: no `Secure` attribute). */
  readonly secure?: boolean;
  /** The cookie's path (default `/`). */
  readonly path?: string;
  /** The `SameSite` attribute (default `lax`). */
  readonly sameSite?: 'lax' | 'strict';
  /** Lifetime in seconds (default: until the browser closes). */
  readonly maxAge?: number;
  /** The cookie's domain (default: this host only). */
  readonly domain?: string;
}

/**
 * The `Set-Cookie` header value carrying a CSRF token. It is deliberately not `HttpOnly`: the
 * page's own JavaScript reads it to send the token back in `X-CSRFToken`. Throws
 * {@link ConfigurationError} when an attribute cannot be serialised (a bad name, path or domain).
 *
 * @example reply.header('set-cookie', csrfCookie(token, { secure: true }))
 */
export function csrfCookie(token: string, options: CsrfCookieOptions = {}): string {
  return setCookie(token, options, {});
}

/**
 * The `Set-Cookie` header value that removes the CSRF cookie set with the same options.
 *
 * @example reply.header('set-cookie', clearCsrfCookie({ secure: true }))
 */
export function clearCsrfCookie(options: CsrfCookieOptions = {}): string {
  return setCookie('', options, { maxAge: 0, expires: new Date(0) });
}

function setCookie(
  value: string,
  options: CsrfCookieOptions,
  lifetime: Pick<SerializeOptions, 'maxAge' | 'expires'>,
): string {
  const name = options.name ?? 'csrftoken';
  try {
    return serialize(name, value, {
      path: options.path ?? '/',
      sameSite: options.sameSite ?? 'lax',
      ...(options.secure === true ? { secure: true } : {}),
      ...(options.maxAge === undefined ? {} : { maxAge: options.maxAge }),
      ...(options.domain === undefined ? {} : { domain: options.domain }),
      ...lifetime,
    });
  } catch (error) {
    throw new ConfigurationError(`CSRF cookie ${JSON.stringify(name)}: ${String(error)}`, {
      cause: error,
    });
  }
}
