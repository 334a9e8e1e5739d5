import type { INestApplication } from '@nestjs/common';
import { METADATA_HEADERS, metadataBody, PREFLIGHT_HEADERS } from '../oauth/metadata-answer.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';
import { Vouch } from './vouch.js';

/**
 * Serves `resource`'s metadata (RFC 9728) at its well-known paths, without authentication and
 * to any origin: `scopes_supported` lists the scopes of every route of the application's
 * controllers that an authenticator of `resource` protects. Call it before `app.listen()`.
 *
 * @example serveResourceMetadata(app, resource);
 */
export function serveResourceMetadata(app: INestApplication, resource: ProtectedResource): void {
  const adapter = app.getHttpAdapter();
  const vouch = app.get(Vouch);
  const answer = (
    response: unknown,
    headers: Record<string, string>,
    status: number,
    body?: string,
  ) => {
    for (const [name, value] of Object.entries(headers)) adapter.setHeader(response, name, value);
    adapter.reply(response, body, status);
  };
  for (const path of resource.metadataPaths) {
    // Routes of the platform's, not of a controller: vouch does not authenticate them.
    adapter.get(path, (_request: unknown, response: unknown) => {
      answer(response, METADATA_HEADERS, 200, metadataBody(resource, vouch.operations()));
    });
    adapter.options(path, (_request: unknown, response: unknown) => {
      answer(response, PREFLIGHT_HEADERS, 204);
    });
  }
}
