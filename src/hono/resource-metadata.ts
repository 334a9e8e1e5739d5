import type { Handler, MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import { operationAuth } from '../internal/declaration.js';
import { METADATA_HEADERS, metadataBody, PREFLIGHT_HEADERS } from '../oauth/metadata-answer.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';
import { declarationOf, requireAuth } from './require-auth.js';

/** What vouch needs of a Hono app to serve a resource's metadata: its routes, and adding some. */
export interface RoutingApp {
  readonly routes: readonly RouterRoute[];
  on(method: string, path: string, ...handlers: (Handler | MiddlewareHandler)[]): unknown;
}

/**
 * Serves `resource`'s metadata (RFC 9728) at its well-known paths, without authentication and
 * to any origin: `scopes_supported` lists the scopes of every route that an authenticator of
 * `resource` protects, read from the app's routes when the metadata is asked for, so routes
 * declared later count.
 *
 * @example serveResourceMetadata(app, resource);
 */
export function serveResourceMetadata(app: RoutingApp, resource: ProtectedResource): void {
  const open = requireAuth(null);
  const metadata: Handler = () => {
    const operations = app.routes.flatMap((route) => {
      const declaration = declarationOf(route);
      return declaration === undefined ? [] : [operationAuth(declaration)];
    });
    return new Response(metadataBody(resource, operations), { headers: METADATA_HEADERS });
  };
  const preflight: Handler = () => new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
  for (const path of resource.metadataPaths) {
    app.on('GET', path, open, metadata);
    app.on('OPTIONS', path, open, preflight);
  }
}
