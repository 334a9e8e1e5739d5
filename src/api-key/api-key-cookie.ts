import { requireToken } from '../core/configuration-checks.js';
import { readCookie } from '../internal/read-once.js';
import { APIKey, type APIKeyOptions } from './api-key.js';

/**
 * An API key in a cookie: `Cookie: <paramName>=<key>`. A browser sends it by itself, so CSRF
 * protection applies to unsafe methods.
 *
 * @example new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: (request, key) => apps.byKey(key) })
 */
export class APIKeyCookie<TAuth = unknown> extends APIKey<TAuth> {
  readonly in = 'cookie';

  constructor(options: APIKeyOptions<TAuth> = {}) {
    super('Cookie', options, (paramName) => (request) => readCookie(request.headers, paramName));
    requireToken(this.paramName, 'APIKeyCookie paramName');
  }

  override get cookieBased(): boolean {
    return true;
  }

  /** A CSRF token is bound to the key the request's cookie carries. */
  protected override csrfBinding(key: string): string {
    return key;
  }
}
