import type { RequestHandler } from 'express';
import { operationAuth } from '../internal/declaration.js';
import type { OperationAuth } from '../core/operation-auth.js';
import { METADATA_HEADERS, metadataBody, PREFLIGHT_HEADERS } from '../oauth/metadata-answer.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';
import { declarationOf, requireAuth } from './require-auth.js';
import type { RouterLike } from '../internal/express-routing.js';

/** What vouch needs of an Express app to serve a resource's metadata. */
export interface RoutingApp {
  readonly router: unknown;
  get(path: string, ...handlers: RequestHandler[]): unknown;
  options(path: string, ...handlers: RequestHandler[]): unknown;
}

/**
 * Serves `resource`'s metadata (RFC 9728) at its well-known paths, without authentication and
 * to any origin: `scopes_supported` lists the scopes of every route that an authenticator of
 * `resource` protects, read from the app's routers when the metadata is asked for, so routes
 * declared later count (a mounted app's are not read: serve its metadata from it).
 *
 * @example serveResourceMetadata(app, resource);
 */
export function serveResourceMetadata(app: RoutingApp, resource: ProtectedResource): void {
  const open = requireAuth(null);
  const metadata: RequestHandler = (_req, res) => {
    const body = metadataBody(resource, operationsIn(app.router as RouterLike));
    res.writeHead(200, METADATA_HEADERS).end(body);
  };
  const preflight: RequestHandler = (_req, res) => {
    res.writeHead(204, PREFLIGHT_HEADERS).end();
  };
  for (const path of resource.metadataPaths) {
    app.get(path, open, metadata);
    app.options(path, open, preflight);
  }
}

/** What every requireAuth in `router`'s stacks declares, in its routes and routers. */
function* operationsIn(router: RouterLike): Generator<OperationAuth, void, undefined> {
  for (const { route, handle } of router.stack) {
    const handles = route === undefined ? [handle] : route.stack.map((inner) => inner.handle);
    for (const one of handles) {
      const declaration = declarationOf(one);
      if (declaration !== undefined) yield operationAuth(declaration);
    }
    if (route === undefined && Array.isArray(handle.stack))
      yield* operationsIn(handle as RouterLike);
  }
}
