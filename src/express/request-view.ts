import type { Request } from 'express';
import type { RequestView } from '../core/request.js';

/** What vouch's hooks receive on Express: a {@link RequestView} and the Express request. */
export interface ExpressRequestView extends RequestView {
  /** The Express request, for what the view does not carry (`req.ip`, `req.body`, …). */
  readonly request: Request;
}

/**
 * The request as vouch reads it: the method, the whole request target (`originalUrl`: a
 * `Router` strips its prefix from `url`), the parsed headers and Node's raw header lines, so a
 * repeated `Authorization` line is seen, and the connection (`req.socket`): its peer and, over
 * TLS ended here, the client's certificate. Express's own `req.ip` and `req.protocol` are not
 * read: an `edge` says which proxies vouch believes.
 */
export function requestView(req: Request): ExpressRequestView {
  return {
    method: req.method,
    url: req.originalUrl,
    headers: req.headers,
    raw: { rawHeaders: req.rawHeaders },
    socket: req.socket,
    request: req,
  };
}
