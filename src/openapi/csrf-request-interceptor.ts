import { runInThisContext } from 'node:vm';
import { SAFE_METHODS } from '../core/safe-method.js';

/** Names of the CSRF cookie the page reads and the header it sends the token back in. */
export interface CsrfNames {
  /** The cookie holding the token (default `csrftoken`). */
  readonly cookieName?: string;
  /** The request header carrying the token (default `X-CSRFToken`). */
  readonly headerName?: string;
}

/** The request Swagger UI hands to a `requestInterceptor`. */
export interface InterceptedRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  [key: string]: unknown;
}

/** A Swagger UI `requestInterceptor`. */
export type RequestInterceptor = (request: InterceptedRequest) => InterceptedRequest;

/**
 * The browser code of the interceptor. Swagger UI's initializer is written out with each option's
 * `toString()`, so this is the one implementation: self-contained, ES5, with the names and the
 * safe methods of `isSafeMethod` inlined as JSON literals (never spliced in raw).
 */
function interceptorSource(cookieName: string, headerName: string): string {
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

/**
 * A Swagger UI `requestInterceptor` that copies the CSRF token from its cookie into the CSRF
 * header on unsafe requests (not GET, HEAD, OPTIONS, TRACE) to the page's own origin, so "Try it
 * out" works with session and cookie-key authentication (contract §4, §8). It runs in the browser:
 * pass it in `uiConfig` and Swagger UI serialises it into the page.
 *
 * @example uiConfig: { requestInterceptor: csrfRequestInterceptor({ cookieName: 'csrftoken' }) }
 */
export function csrfRequestInterceptor(names: CsrfNames = {}): RequestInterceptor {
  const source = interceptorSource(
    names.cookieName ?? 'csrftoken',
    names.headerName ?? 'X-CSRFToken',
  );
  // Compiled from the very text the page receives, so what runs in tests is what ships.
  return runInThisContext(`(${source})`) as RequestInterceptor;
}
