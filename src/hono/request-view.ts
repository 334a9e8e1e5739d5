import type { Context } from 'hono';
import type { RequestView } from '../core/request.js';

/** What vouch's hooks receive on Hono: a {@link RequestView} and the request's Hono context. */
export interface HonoRequestView extends RequestView {
  /** The Hono context, for what the view does not carry (`c.env` bindings, connection info). */
  readonly context: Context;
}

/**
 * The request of a Hono context as vouch reads it: the method, the request target (path and
 * query, as the URL standard normalised them), the headers by lower-case name and, on
 * @hono/node-server, the header lines as the client sent them. Fetch's `Headers` join a repeated
 * line with ", ", so without those lines a repeated `Authorization` cannot be told from one.
 */
export function requestView(c: Context): HonoRequestView {
  const url = c.req.url;
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const rawHeaders = nodeRawHeaders(c.env);
  return {
    method: c.req.method,
    // A parsed URL always has a path: the target starts at the first '/' after the authority.
    url: url.slice(url.indexOf('/', url.indexOf('//') + 2)),
    headers,
    ...(rawHeaders === undefined ? {} : { raw: { rawHeaders } }),
    context: c,
  };
}

/** The raw header lines of Node's `IncomingMessage`, which @hono/node-server puts in `c.env`. */
function nodeRawHeaders(env: unknown): readonly string[] | undefined {
  const incoming = (env as { incoming?: { rawHeaders?: unknown } } | undefined)?.incoming;
  const raw = incoming?.rawHeaders;
  return Array.isArray(raw) ? (raw as string[]) : undefined;
}
