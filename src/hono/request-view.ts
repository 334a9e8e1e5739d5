import type { Context } from 'hono';
import type { ConnectionView, HeaderMap, RequestView } from '../core/request.js';

/** What vouch's hooks receive on Hono: a {@link RequestView} and the request's Hono context. */
export interface HonoRequestView extends RequestView {
  /** The Hono context, for what the view does not carry (`c.env` bindings, connection info). */
  readonly context: Context;
}

/**
 * The request of a Hono context as vouch reads it: the method, the request target (path and
 * query, as the URL standard normalised them) and the headers by lower-case name. On
 * @hono/node-server these are Node's own, as on Express, beside the header lines as the client
 * sent them, and the connection (Node's socket: its peer and, over TLS ended here, the client's
 * certificate). Fetch's `Headers` join a repeated line with ", ", so without those lines a
 * repeated `Authorization` cannot be told from one; other runtimes give no connection.
 */
export function requestView(c: Context): HonoRequestView {
  const href = c.req.url;
  // A parsed URL always has a path: the target starts at the first '/' after the authority.
  const url = href.slice(href.indexOf('/', href.indexOf('//') + 2));
  const incoming = nodeIncoming(c.env);
  if (incoming === undefined) {
    return { method: c.req.method, url, headers: copy(c.req.raw.headers), context: c };
  }
  // Node's parsed headers are there already (@hono/node-server reads the host from them), while
  // reading every Fetch header makes @hono/node-server build a `Headers` object per request.
  // `raw` is Node's message itself, as on Fastify.
  const { headers, socket } = incoming;
  return { method: c.req.method, url, headers, raw: incoming, socket, context: c };
}

/** Fetch's headers as a record, where the runtime has nothing else. */
function copy(fetchHeaders: Headers): Record<string, string> {
  const headers: Record<string, string> = {};
  fetchHeaders.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** Node's `IncomingMessage`, as far as vouch reads it. */
interface NodeIncoming {
  readonly headers: HeaderMap;
  readonly rawHeaders: string[];
  readonly socket?: ConnectionView;
}

/** Node's `IncomingMessage`, which @hono/node-server puts in `c.env`. */
function nodeIncoming(env: unknown): NodeIncoming | undefined {
  const incoming = (env as { incoming?: { headers?: unknown; rawHeaders?: unknown } } | undefined)
    ?.incoming;
  return typeof incoming?.headers === 'object' && Array.isArray(incoming.rawHeaders)
    ? (incoming as NodeIncoming)
    : undefined;
}
