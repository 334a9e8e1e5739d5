import { runInThisContext } from 'node:vm';
import { dpopAuthorizationSource } from './dpop-authorization-source.js';
import type { SwaggerUiPlugin } from './persist-tokens-only.js';

/**
 * A Swagger UI plugin that lets the Authorize dialog take a token for an `http` scheme `DPoP`,
 * shows the thumbprint of the page's key to bind tokens to, has Try it out send the token as
 * `Authorization: DPoP` and retries once on a nonce challenge (see
 * {@link dpopAuthorizationSource}); {@link dpopRequestInterceptor} signs the proofs. It runs in
 * the browser: pass it in `plugins` where the page is configured with functions
 * (`@fastify/swagger-ui`'s `uiConfig`, `swagger-ui-express`'s `swaggerOptions`).
 *
 * @example swaggerOptions: { plugins: [persistTokensOnly(), dpopAuthorization()], requestInterceptor: dpopRequestInterceptor() }
 */
export function dpopAuthorization(): SwaggerUiPlugin {
  // Compiled from the very text the page receives, so what runs in tests is what ships.
  return runInThisContext(`(${dpopAuthorizationSource()})`) as SwaggerUiPlugin;
}
