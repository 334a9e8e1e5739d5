// Fastify's names are reached through this namespace inside the augmentation below: a bare name
// there (say `FastifySchema`, which @fastify/swagger augments too) can resolve to the merged
// module, and TypeScript then drops its import from the emitted declaration file.
import type * as fastifyTypes from 'fastify';
import type { AuthSpec } from '../core/auth-spec.js';
import type { CsrfOptions, CsrfProtection } from '../csrf/csrf-protection.js';
import type { OperationAuth } from '../core/operation-auth.js';
import type { SecurityScheme } from '../core/security-scheme.js';

/** What the vouch plugin decorates the Fastify instance with. */
export interface VouchDecoration {
  /** Every security scheme declared so far, by name, for `components.securitySchemes`. */
  securitySchemes(): Record<string, SecurityScheme>;
  /** The realm used in challenges. */
  readonly realm: string;
  /** Whether CSRF protection is on API-wide. */
  readonly csrf: boolean;
  /** The cookie carrying the CSRF token (default `csrftoken`). */
  readonly csrfCookieName: string;
  /** The header a page sends the CSRF token back in (default `X-CSRFToken`). */
  readonly csrfHeaderName: string;
  /**
   * The CSRF protection the plugin checks requests with, to issue tokens and check sign-ins with
   * the same secret and origins; `undefined` when the plugin was given no `csrf` options.
   */
  readonly csrfProtection: CsrfProtection | undefined;
  /** The authentication in force on every route declared so far, as its routing resolved it. */
  operations(): readonly OperationAuth[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * What the winning authenticator returned; `undefined` on routes without authentication.
     * For a typed value use `withAuth()` on the route or `authOf(request, authenticator)`.
     */
    auth: unknown;
  }

  interface FastifyInstance {
    /** vouch's view of this API: declared schemes, realm, CSRF. */
    vouch: VouchDecoration;
  }

  interface RegisterOptions {
    /** `auth` for every route of the router being mounted; `null` disables it. */
    auth?: AuthSpec;
    /**
     * CSRF protection for the router being mounted (a boolean). The vouch plugin itself takes
     * its CSRF settings under the same key, which is why the type is wider.
     */
    csrf?: boolean | CsrfOptions;
  }

  // Every declaration of an interface must have identical type parameters: these are Fastify's.
  interface RouteShorthandOptions<
    /* eslint-disable @typescript-eslint/no-unused-vars */
    RawServer extends fastifyTypes.RawServerBase = fastifyTypes.RawServerDefault,
    RawRequest extends fastifyTypes.RawRequestDefaultExpression<RawServer> =
      fastifyTypes.RawRequestDefaultExpression<RawServer>,
    RawReply extends fastifyTypes.RawReplyDefaultExpression<RawServer> =
      fastifyTypes.RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends fastifyTypes.RouteGenericInterface = fastifyTypes.RouteGenericInterface,
    ContextConfig = fastifyTypes.ContextConfigDefault,
    SchemaCompiler extends fastifyTypes.FastifySchema = fastifyTypes.FastifySchema,
    TypeProvider extends fastifyTypes.FastifyTypeProvider = fastifyTypes.FastifyTypeProviderDefault,
    Logger extends fastifyTypes.FastifyBaseLogger = fastifyTypes.FastifyBaseLogger,
    /* eslint-enable @typescript-eslint/no-unused-vars */
  > {
    /** The authentication this operation requires; overrides routers and the API. `null` disables it. */
    auth?: AuthSpec;
    /** `false` exempts this operation from CSRF protection. */
    csrf?: boolean;
    /** Scopes the credential must grant; one accepted without them answers 403. */
    scopes?: readonly string[];
  }
}

declare module '../core/request.js' {
  interface Register {
    request: fastifyTypes.FastifyRequest;
  }
}
