import { runInThisContext } from 'node:vm';
import { senderConstrainedAuthorizationSource } from './sender-constrained-authorization-source.js';
import type { SwaggerUiPlugin } from './persist-tokens-only.js';

/**
 * A Swagger UI plugin for the sender-constrained schemes (see
 * {@link senderConstrainedAuthorizationSource}): the Authorize dialog takes a token for an `http`
 * scheme `DPoP` and shows the thumbprint of the page's key to bind tokens to, Try it out sends
 * the token as `Authorization: DPoP` and retries once on a nonce challenge, and a `mutualTLS`
 * scheme says that the browser presents the certificate; {@link dpopRequestInterceptor} signs
 * the proofs. It runs in the browser: pass it in `plugins` where the page is configured with
 * functions (`@fastify/swagger-ui`'s `uiConfig`, `swagger-ui-express`'s `swaggerOptions`).
 *
 * @example swaggerOptions: { plugins: [persistTokensOnly(), senderConstrainedAuthorization()], requestInterceptor: dpopRequestInterceptor() }
 */
export function senderConstrainedAuthorization(): SwaggerUiPlugin {
  // Compiled from the very text the page receives, so what runs in tests is what ships.
  return runInThisContext(`(${senderConstrainedAuthorizationSource()})`) as SwaggerUiPlugin;
}
