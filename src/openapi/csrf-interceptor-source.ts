import { SAFE_METHODS } from '../core/safe-method.js';

/** Names of the CSRF cookie the page reads and the header it sends the token back in. */
export interface CsrfNames {
  /** The cookie holding the token (default `csrftoken`). */
  readonly cookieName?: string;
  /** The request header carrying the token (default `X-CSRFToken`). */
  readonly headerName?: string;
}

/**
 * The browser code of a Swagger UI `requestInterceptor` that copies the CSRF token from its cookie
 * into the CSRF header on unsafe requests to the page's own origin: self-contained ES5, with the
 * names and the safe methods of `isSafeMethod` inlined as JSON literals (never spliced in raw).
 * It is the one implementation; give it where a page takes the interceptor as source text, as
 * `@hono/swagger-ui`'s `requestInterceptor` does.
 *
 * @example swaggerUI({ url: '/api/openapi.json', requestInterceptor: csrfRequestInterceptorSource() })
 */
export function csrfRequestInterceptorSource(names: CsrfNames = {}): string {
  const cookieName = names.cookieName ?? 'csrftoken';
  const headerName = names.headerName ?? 'X-CSRFToken';
  return `function vouchCsrfInterceptor(request) {
  var method = String(request.method || 'GET').toUpperCase();
  if (${JSON.stringify(SAFE_METHODS)}.indexOf(method) !== -1) return request;
  try {
    if (new URL(request.url, window.location.href).origin !== window.location.origin) return request;
  } catch (error) {
    return request;
  }
  var cookieName = ${JSON.stringify(cookieName)};
  var pairs = document.cookie ? document.cookie.split(';') : [];
  for (var i = 0; i < pairs.length; i++) {
    var eq = pairs[i].indexOf('=');
    if (eq === -1 || pairs[i].slice(0, eq).trim() !== cookieName) continue;
    var value = pairs[i].slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch (error) {}
    if (value === '') return request;
    request.headers = request.headers || {};
    request.headers[${JSON.stringify(headerName)}] = value;
    return request;
  }
  return request;
}`;
}
