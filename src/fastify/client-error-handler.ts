import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Answers what Node's HTTP parser refuses before any route sees it (a NUL or a bare CR in a
 * header, a folded header line, headers too large, a request too slow) with the same
 * `{"detail": …}` body as every other error, instead of Fastify's own shape: 431 for oversized
 * headers, 408 for a timeout, 400 otherwise. The connection is closed afterwards, as Node does.
 *
 * @example const app = Fastify({ clientErrorHandler });
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection is already gone: there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : 400;
  const reason = STATUS_CODES[status] ?? 'Bad Request';
  this.log.debug({ err: error }, 'request refused by the HTTP parser');
  if (socket.writable) {
    const body = JSON.stringify({ detail: reason });
    socket.write(
      `HTTP/1.1 ${String(status)} ${reason}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${String(Buffer.byteLength(body))}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
