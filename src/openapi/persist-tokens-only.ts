import { runInThisContext } from 'node:vm';
import { persistTokensOnlySource } from './persist-tokens-only-source.js';

/** A Swagger UI plugin: called with Swagger UI's system, it returns what it adds or wraps. */
export type SwaggerUiPlugin = (system: unknown) => Record<string, unknown>;

/**
 * A Swagger UI plugin that keeps only bearer tokens, API keys and OAuth2 access tokens when
 * `persistAuthorization` stores what Authorize holds, never a password or a client secret, and
 * says so in the Authorize dialog (see {@link persistTokensOnlySource}). It runs in the browser:
 * pass it in `plugins` where the page is configured with functions (`@fastify/swagger-ui`'s
 * `uiConfig`, `swagger-ui-express`'s `swaggerOptions`), which serialise it into the page.
 *
 * @example swaggerUi.setup(undefined, { swaggerOptions: { url, persistAuthorization: true, plugins: [persistTokensOnly()] } })
 */
export function persistTokensOnly(): SwaggerUiPlugin {
  // Compiled from the very text the page receives, so what runs in tests is what ships.
  return runInThisContext(`(${persistTokensOnlySource()})`) as SwaggerUiPlugin;
}
