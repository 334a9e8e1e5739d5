import type { IncomingMessage } from 'node:http';
import type { RequestView } from '../core/request.js';

/**
 * What vouch's hooks receive on Nest: on Fastify its request as is (as on vouch/fastify), on
 * Express a {@link RequestView} carrying Express's request.
 */
export type NestRequestView = RequestView & { readonly request?: unknown };

/**
 * The request as vouch reads it. Fastify's request is a view already. An Express request (a
 * Node request) gives the whole target as it arrived (`originalUrl`: nothing rewrote it yet when
 * vouch reads it, but a handler's `Router` would), the parsed headers and Node's raw header
 * lines, so that a repeated `Authorization` line is seen.
 */
export function requestView(request: object): NestRequestView {
  if ((request as { raw?: unknown }).raw !== undefined) return request as RequestView;
  const node = request as IncomingMessage & { readonly originalUrl: string };
  return {
    method: node.method as string,
    url: node.originalUrl,
    headers: node.headers,
    raw: { rawHeaders: node.rawHeaders },
    socket: node.socket,
    request,
  };
}
