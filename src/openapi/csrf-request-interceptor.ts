import { runInThisContext } from 'node:vm';
import { csrfRequestInterceptorSource, type CsrfNames } from './csrf-interceptor-source.js';

export type { CsrfNames } from './csrf-interceptor-source.js';

/** The request Swagger UI hands to a `requestInterceptor`. */
export interface InterceptedRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  [key: string]: unknown;
}

/** A Swagger UI `requestInterceptor`. */
export type RequestInterceptor = (request: InterceptedRequest) => InterceptedRequest;

/** A Swagger UI `requestInterceptor` that may answer with a promise, which Swagger UI waits for. */
export type AsyncRequestInterceptor = (
  request: InterceptedRequest,
) => InterceptedRequest | Promise<InterceptedRequest>;

/**
 * A Swagger UI `requestInterceptor` that copies the CSRF token from its cookie into the CSRF
 * header on unsafe requests (not GET, HEAD, OPTIONS, TRACE) to the page's own origin, so "Try it
 * out" works with session and cookie-key authentication (contract §4, §8). It runs in the browser:
 * pass it in `uiConfig` and Swagger UI serialises it into the page.
 *
 * @example uiConfig: { requestInterceptor: csrfRequestInterceptor({ cookieName: 'csrftoken' }) }
 */
export function csrfRequestInterceptor(names: CsrfNames = {}): RequestInterceptor {
  const source = csrfRequestInterceptorSource(names);
  // Compiled from the very text the page receives, so what runs in tests is what ships.
  return runInThisContext(`(${source})`) as RequestInterceptor;
}
