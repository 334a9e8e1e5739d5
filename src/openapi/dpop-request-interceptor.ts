import { runInThisContext } from 'node:vm';
import type { AsyncRequestInterceptor } from './csrf-request-interceptor.js';
import { dpopRequestInterceptorSource } from './dpop-interceptor-source.js';

/**
 * A Swagger UI `requestInterceptor` that adds a DPoP proof, signed in the page with a key made
 * there, to every request carrying `Authorization: DPoP <token>`, and keeps the server's
 * `DPoP-Nonce` for the next proofs (see {@link dpopRequestInterceptorSource}). It runs in the
 * browser: pass it where the page is configured with functions (`@fastify/swagger-ui`'s
 * `uiConfig`, `swagger-ui-express`'s `swaggerOptions`), last in {@link chainRequestInterceptors},
 * beside the {@link senderConstrainedAuthorization} plugin.
 *
 * @example swaggerOptions: { requestInterceptor: chainRequestInterceptors(csrfRequestInterceptor(), dpopRequestInterceptor()), plugins: [senderConstrainedAuthorization()] }
 */
export function dpopRequestInterceptor(): AsyncRequestInterceptor {
  // Compiled from the very text the page receives, so what runs in tests is what ships.
  return runInThisContext(`(${dpopRequestInterceptorSource()})`) as AsyncRequestInterceptor;
}
