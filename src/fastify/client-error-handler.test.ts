import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { clientErrorHandler } from './client-error-handler.js';

// The parser's own refusals are proven over real sockets in test/http/raw-socket.test.ts; a
// timeout would take the server's whole request timeout there, so it is driven directly here.
function socket(): { socket: Socket; written: string[]; destroyed: () => boolean } {
  const written: string[] = [];
  let destroyed = false;
  const fake = {
    destroyed: false,
    writable: true,
    write: (chunk: string) => written.push(chunk) > 0,
    destroy: () => {
      destroyed = true;
    },
  };
  return { socket: fake as unknown as Socket, written, destroyed: () => destroyed };
}

const app = { log: { debug: () => undefined } } as unknown as FastifyInstance;
const error = (code: string) => Object.assign(new Error(code), { code });

test('a request too slow is answered 408 with a { detail } body, and the connection closed', () => {
  const s = socket();
  clientErrorHandler.call(app, error('ERR_HTTP_REQUEST_TIMEOUT'), s.socket);
  const [reply = ''] = s.written;
  assert.match(reply, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.ok(reply.endsWith('\r\n\r\n{"detail":"Request Timeout"}'));
  assert.equal(s.destroyed(), true);
});

test('a reset connection gets no answer', () => {
  const s = socket();
  clientErrorHandler.call(app, error('ECONNRESET'), s.socket);
  assert.deepEqual(s.written, []);
  assert.equal(s.destroyed(), false);
});
