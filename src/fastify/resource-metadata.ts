import type { FastifyInstance } from 'fastify';
import { METADATA_HEADERS, metadataBody, PREFLIGHT_HEADERS } from '../oauth/metadata-answer.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';
import './types.js';

/**
 * Serves `resource`'s metadata (RFC 9728) at its well-known paths, without authentication and
 * to any origin: `scopes_supported` lists the scopes of every route that an authenticator of
 * `resource` protects, read when the metadata is asked for, so routes declared later count.
 * Call it once the vouch plugin is registered.
 *
 * @example serveResourceMetadata(app, resource);
 */
export function serveResourceMetadata(app: FastifyInstance, resource: ProtectedResource): void {
  for (const path of resource.metadataPaths) {
    app.get(path, { auth: null }, async (_request, reply) =>
      reply.headers(METADATA_HEADERS).send(metadataBody(resource, app.vouch.operations())),
    );
    app.options(path, { auth: null }, async (_request, reply) =>
      reply.code(204).headers(PREFLIGHT_HEADERS).send(),
    );
  }
}
