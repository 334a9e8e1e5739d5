import { Authenticator, type AuthenticatorOptions } from './authenticator.js';
import { judgeHook, type Awaitable, type Nothing, type Outcome } from './outcome.js';
import type { AuthRequest, RequestView } from './request.js';
import type { SecurityScheme } from './security-scheme.js';
import { requirePrintable, schemeNamePart } from './configuration-checks.js';
import { ConfigurationError } from './errors.js';

/** A custom check: reads anything from the request, returns the caller or nothing. */
export type AuthFunction<TAuth = unknown> = (request: AuthRequest) => Awaitable<TAuth | Nothing>;

/** Options of {@link authFunction}. */
export interface AuthFunctionOptions extends AuthenticatorOptions {
  /** The scheme to document for this function; undocumented when omitted. */
  readonly securityScheme?: SecurityScheme;
  /** A `WWW-Authenticate` challenge to send when the function rejects (none by default). */
  readonly challenge?: string;
}

/**
 * A custom function wrapped as an authenticator. A plain function placed in `auth` is wrapped
 * for you; wrap it yourself with {@link authFunction} to give it a scheme, a name or a challenge.
 * What it accepts is answered `Cache-Control: private`, as for an API key or a session.
 */
export class FunctionAuthenticator<TAuth = unknown> extends Authenticator<TAuth> {
  /** The wrapped function. */
  readonly fn: AuthFunction<TAuth>;
  readonly #scheme: SecurityScheme | undefined;
  readonly #challenge: string | undefined;

  constructor(fn: AuthFunction<TAuth>, options: AuthFunctionOptions = {}) {
    if (typeof fn !== 'function') {
      throw new ConfigurationError(`authFunction() needs a function, got ${typeof fn}`);
    }
    if (options.challenge !== undefined) requirePrintable(options.challenge, 'challenge');
    super(`function_${fn.name === '' ? 'anonymous' : schemeNamePart(fn.name)}`, options);
    this.fn = fn;
    this.#scheme = options.securityScheme;
    this.#challenge = options.challenge;
  }

  override get securityScheme(): SecurityScheme | undefined {
    return this.#scheme;
  }

  /**
   * A function may read anything (the client's address, a header, a cookie): what it accepted is
   * not known to ride in `Authorization`, which alone keeps shared caches away (RFC 9111 §3.5).
   */
  override get privateResponses(): boolean {
    return true;
  }

  override challenge(): string | undefined {
    return this.#challenge;
  }

  override verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>> {
    return judgeHook(this.fn(request as AuthRequest));
  }
}

/**
 * Declares a custom function with a documented scheme, a name or a challenge.
 *
 * @example
 * const internal = authFunction((request) => allowList.has(request.ip) ? request.ip : undefined, {
 *   name: 'ipAllowList',
 * });
 */
export function authFunction<TAuth>(
  fn: AuthFunction<TAuth>,
  options: AuthFunctionOptions = {},
): FunctionAuthenticator<TAuth> {
  return new FunctionAuthenticator(fn, options);
}
