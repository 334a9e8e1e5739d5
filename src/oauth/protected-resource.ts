import { ConfigurationError } from '../core/errors.js';

/** The path RFC 9728 §3 registers for a protected resource's metadata. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** Options of {@link protectedResource}. */
export interface ProtectedResourceOptions {
  /**
   * The resource identifier (RFC 8707, RFC 9728 §1.2): the absolute `https` URL clients name as
   * `resource` when they ask for a token, and the one audience its access tokens must carry.
   * `http` only on a loopback host, for development. No fragment, no query.
   */
  readonly resource: string;
  /** The issuers of the authorization servers whose tokens the resource accepts (at least one). */
  readonly authorizationServers: readonly string[];
  /** A human-readable name for the resource (`resource_name`). */
  readonly resourceName?: string;
  /** A page describing how to use the resource (`resource_documentation`). */
  readonly resourceDocumentation?: string;
  /** The resource's policy on data use (`resource_policy_uri`). */
  readonly resourcePolicyUri?: string;
  /** The resource's terms of service (`resource_tos_uri`). */
  readonly resourceTosUri?: string;
}

/** RFC 9728 §2 metadata of a protected resource, as served. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported: readonly string[];
  readonly dpop_signing_alg_values_supported?: readonly string[];
  readonly dpop_bound_access_tokens_required?: boolean;
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly resource_policy_uri?: string;
  readonly resource_tos_uri?: string;
}

/**
 * An OAuth 2.1 protected resource (RFC 9728): what it is called, which authorization servers
 * issue its tokens, and where its metadata is. Give it to the Bearer authenticators that accept
 * its tokens (`resource` option): their challenges then point to the metadata, and a `JwtBearer`
 * accepts only tokens minted for it. The metadata document is derived from the declarations of
 * the routes those authenticators protect (`scopes_supported`) and served by each engine's
 * adapter.
 */
export class ProtectedResource {
  /** The resource identifier, as configured. */
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  /** The absolute URL of the metadata (RFC 9728 §3.1), derived from the resource identifier. */
  readonly metadataUrl: string;
  /**
   * The paths the metadata is served at: the RFC 9728 §3.1 one (the resource's path after the
   * well-known path), then, for a resource with a path, the well-known path alone.
   */
  readonly metadataPaths: readonly string[];
  readonly #details: {
    readonly [K in keyof ProtectedResourceOptions]?: ProtectedResourceOptions[K] | undefined;
  };

  constructor(options: ProtectedResourceOptions) {
    const url = resourceUrl(options.resource);
    this.resource = options.resource;
    this.authorizationServers = authorizationServers(options.authorizationServers);
    const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
    this.metadataUrl = `${url.origin}${RESOURCE_METADATA_PATH}${path}`;
    this.metadataPaths =
      path === ''
        ? [RESOURCE_METADATA_PATH]
        : [`${RESOURCE_METADATA_PATH}${path}`, RESOURCE_METADATA_PATH];
    const { resourceName, resourceDocumentation, resourcePolicyUri, resourceTosUri } = options;
    if (resourceName !== undefined && (typeof resourceName !== 'string' || resourceName === '')) {
      throw new ConfigurationError('ProtectedResource resourceName must be a non-empty string');
    }
    for (const [name, value] of Object.entries({
      resourceDocumentation,
      resourcePolicyUri,
      resourceTosUri,
    })) {
      if (value !== undefined) absoluteUrl(value, `ProtectedResource ${name}`);
    }
    this.#details = { resourceName, resourceDocumentation, resourcePolicyUri, resourceTosUri };
  }

  /**
   * The metadata document, given the scopes the declarations of its routes require (sorted,
   * each once; left out when there are none) and, when DPoP-bound tokens are accepted, the proof
   * algorithms and whether only those are.
   */
  metadata(
    scopes: Iterable<string>,
    dpop?: { readonly algorithms: Iterable<string>; readonly required: boolean },
  ): ProtectedResourceMetadata {
    const supported = [...new Set(scopes)].sort();
    const details = this.#details;
    return {
      resource: this.resource,
      authorization_servers: this.authorizationServers,
      ...(supported.length === 0 ? {} : { scopes_supported: supported }),
      // vouch's Bearer reads the Authorization header only (a query token is ambiguous).
      bearer_methods_supported: ['header'],
      ...(dpop === undefined
        ? {}
        : {
            dpop_signing_alg_values_supported: [...new Set(dpop.algorithms)],
            dpop_bound_access_tokens_required: dpop.required,
          }),
      ...(details.resourceName === undefined ? {} : { resource_name: details.resourceName }),
      ...(details.resourceDocumentation === undefined
        ? {}
        : { resource_documentation: details.resourceDocumentation }),
      ...(details.resourcePolicyUri === undefined
        ? {}
        : { resource_policy_uri: details.resourcePolicyUri }),
      ...(details.resourceTosUri === undefined ? {} : { resource_tos_uri: details.resourceTosUri }),
    };
  }
}

/**
 * Declares an OAuth 2.1 protected resource; see {@link ProtectedResource}.
 *
 * @example
 * const api = protectedResource({
 *   resource: 'https://api.example.com/mcp',
 *   authorizationServers: ['https://login.example.com'],
 * });
 */
export function protectedResource(options: ProtectedResourceOptions): ProtectedResource {
  return new ProtectedResource(options);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function resourceUrl(resource: unknown): URL {
  const url = absoluteUrl(resource, 'ProtectedResource resource');
  if (url.hash !== '' || (resource as string).includes('#')) {
    throw new ConfigurationError('ProtectedResource resource must not have a fragment');
  }
  if (url.search !== '' || (resource as string).includes('?')) {
    throw new ConfigurationError('ProtectedResource resource must not have a query');
  }
  return url;
}

function authorizationServers(issuers: unknown): readonly string[] {
  if (!Array.isArray(issuers) || issuers.length === 0) {
    throw new ConfigurationError(
      'ProtectedResource authorizationServers must list the issuer of at least one authorization server',
    );
  }
  for (const issuer of issuers) absoluteUrl(issuer, 'ProtectedResource authorizationServers');
  return Object.freeze([...(issuers as string[])]);
}

/** An absolute `https` URL, or `http` on a loopback host; a `ConfigurationError` naming `what` else. */
export function absoluteUrl(value: unknown, what: string): URL {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (
    url === undefined ||
    !(url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
  ) {
    throw new ConfigurationError(
      `${what} must be an absolute https URL (http only on a loopback host): ${JSON.stringify(value)}`,
    );
  }
  return url;
}
