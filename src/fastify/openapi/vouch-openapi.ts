import swagger, {
  type FastifyDynamicSwaggerOptions,
  type SwaggerTransform,
  type SwaggerTransformObject,
} from '@fastify/swagger';
import swaggerUi, {
  type FastifySwaggerUiConfigOptions,
  type FastifySwaggerUiOptions,
} from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import '../types.js';
import { chainRequestInterceptors } from '../../openapi/chain-request-interceptors.js';
import { csrfRequestInterceptor } from '../../openapi/csrf-request-interceptor.js';
import { senderConstrainedAuthorization } from '../../openapi/sender-constrained-authorization.js';
import { dpopRequestInterceptor } from '../../openapi/dpop-request-interceptor.js';
import { persistTokensOnly } from '../../openapi/persist-tokens-only.js';
import { securityTransform, securityTransformObject } from './security-transform.js';

/** `Omit` applied to each member of a union (the document may follow OpenAPI 3.0, 3.1 or 3.2 types). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Options of {@link vouchOpenapi}. */
export interface VouchOpenapiOptions {
  /** The document's fixed parts: `info`, `servers`, `tags`, `components`…; the version is 3.1.0. */
  readonly openapi?: OmitEach<NonNullable<FastifyDynamicSwaggerOptions['openapi']>, 'openapi'>;
  /** Where the description is served (default `/api/openapi.json`). */
  readonly jsonPath?: string;
  /** Where the docs page is served (default `/api/docs`). */
  readonly docsPath?: string;
  /** Your own route `transform`; vouch's security is added to what it returns. */
  readonly transform?: SwaggerTransform;
  /** Your own `transformObject`; it sees the document with vouch's security schemes in place. */
  readonly transformObject?: SwaggerTransformObject;
  /**
   * Swagger UI settings, over vouch's (`urls` naming `jsonPath`, `persistAuthorization: true`
   * keeping tokens and keys only, a `requestInterceptor` adding the CSRF header and signing DPoP
   * proofs, `validatorUrl: null`). A `requestInterceptor` of yours replaces vouch's (chain yours
   * with {@link csrfRequestInterceptor} and {@link dpopRequestInterceptor} through
   * {@link chainRequestInterceptors} to keep them); `plugins` of yours come after vouch's
   * {@link persistTokensOnly} and {@link senderConstrainedAuthorization}.
   */
  readonly uiConfig?: FastifySwaggerUiConfigOptions;
  /** Other `@fastify/swagger-ui` options (`theme`, `logo`, `staticCSP`…). */
  readonly ui?: Omit<FastifySwaggerUiOptions, 'routePrefix' | 'uiConfig'>;
}

async function vouchOpenapiPlugin(
  app: FastifyInstance,
  options: VouchOpenapiOptions,
): Promise<void> {
  const jsonPath = options.jsonPath ?? '/api/openapi.json';
  const docsPath = options.docsPath ?? '/api/docs';

  await app.register(swagger, {
    mode: 'dynamic',
    openapi: { ...options.openapi, openapi: '3.1.0' } as NonNullable<
      FastifyDynamicSwaggerOptions['openapi']
    >,
    transform: securityTransform(app, options.transform),
    transformObject: securityTransformObject(app, options.transformObject),
  });

  app.get(jsonPath, { auth: null, schema: { hide: true } }, () => app.swagger());

  // The docs page must open without credentials whatever the API-wide auth. Swagger UI declares
  // its routes (and @fastify/static's) without vouch options, so they are wrapped in a context
  // mounted with auth: null, which vouch treats as a router mount: everything in it is public.
  await app.register(
    async function vouchDocs(docs) {
      await docs.register(swaggerUi, {
        ...options.ui,
        routePrefix: docsPath,
        uiConfig: {
          // The page loads, and its bar names, the description at jsonPath: one URL for both.
          urls: [{ url: jsonPath, name: jsonPath }],
          persistAuthorization: true,
          // Typed there as taking a fetch Request; Swagger UI really passes a plain object.
          // The CSRF header, then the DPoP proof, which signs the request as it is by then.
          requestInterceptor: chainRequestInterceptors(
            csrfRequestInterceptor({
              cookieName: app.vouch.csrfCookieName,
              headerName: app.vouch.csrfHeaderName,
            }),
            dpopRequestInterceptor(),
          ) as unknown as FastifySwaggerUiConfigOptions['requestInterceptor'],
          validatorUrl: null,
          ...options.uiConfig,
          // Never dropped by a uiConfig of the user's: one keeps passwords out of localStorage,
          // the other shows DPoP and mutualTLS schemes in Authorize, which Swagger UI cannot.
          plugins: [
            persistTokensOnly(),
            senderConstrainedAuthorization(),
            ...(options.uiConfig?.plugins ?? []),
          ],
        },
      });
    },
    { auth: null },
  );
}

/**
 * Documents the API from vouch's own declarations: an OpenAPI 3.1 description at `jsonPath` and
 * Swagger UI at `docsPath`, both public, served by the service itself (no CDN). Every operation
 * gets its `security` and vouch's error responses; `components.securitySchemes` lists every
 * scheme in use. The page keeps tokens and API keys across reloads (never a password, and says
 * so: {@link persistTokensOnly}) and copies the CSRF token from its cookie into its header on
 * unsafe requests, both named as in the vouch plugin's `csrf` option. An `http` scheme `DPoP`
 * takes a token in Authorize, which shows the thumbprint of a key the page makes to sign DPoP
 * proofs with, and Try it out sends the token with a fresh proof
 * ({@link senderConstrainedAuthorization}, {@link dpopRequestInterceptor}).
 * Register it after the vouch plugin and before your routes.
 *
 * @example
 * await app.register(vouch, { auth: bearer, csrf: { secret, trustedOrigins } });
 * await app.register(vouchOpenapi, { openapi: { info: { title: 'Pets', version: '1.0.0' } } });
 */
export const vouchOpenapi = fp(vouchOpenapiPlugin, {
  name: 'vouch-openapi',
  fastify: '5.x',
  dependencies: ['vouch'],
});
