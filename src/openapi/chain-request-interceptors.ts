import { runInThisContext } from 'node:vm';
import { chainRequestInterceptorsSource } from './chain-interceptors-source.js';
import type { AsyncRequestInterceptor } from './csrf-request-interceptor.js';

/**
 * One Swagger UI `requestInterceptor` that runs the given ones in order (see
 * {@link chainRequestInterceptorsSource}), for pages configured with functions
 * (`@fastify/swagger-ui`'s `uiConfig`, `swagger-ui-express`'s `swaggerOptions`), which serialise
 * it into the page: each must be self-contained, as the page receives only its text. Put
 * {@link dpopRequestInterceptor} last.
 *
 * @example swaggerOptions: { requestInterceptor: chainRequestInterceptors(csrfRequestInterceptor(), dpopRequestInterceptor()) }
 */
export function chainRequestInterceptors(
  ...interceptors: readonly AsyncRequestInterceptor[]
): AsyncRequestInterceptor {
  const source = chainRequestInterceptorsSource(...interceptors.map(String));
  // Compiled from the very text the page receives, so what runs in tests is what ships.
  return runInThisContext(`(${source})`) as AsyncRequestInterceptor;
}
