// What only a real HTTP parser shows: Node keeps the first of two Authorization lines and joins
// repeated custom headers, so these requests are sent byte for byte over a socket.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { APIKeyHeader, HttpBearer } from '../../src/index.js';
import { build } from '../helpers/build.js';

async function listening(t: TestContext) {
  const calls: string[] = [];
  const bearer = new HttpBearer({
    authenticate: (_request, token) => {
      calls.push(token);
      return token === 'good' ? 'ann' : undefined;
    },
  });
  const key = new APIKeyHeader({
    paramName: 'X-API-Key',
    authenticate: (_request, value) => {
      calls.push(value);
      return value === 'k' ? 'app' : undefined;
    },
  });
  const app = await build(t, { auth: bearer, csrf: false }, { bodyLimit: 1024 });
  let handled = 0;
  app.get('/bearer', async (request) => {
    handled++;
    return { token: request.auth };
  });
  app.get('/key', { auth: key }, async (request) => ({ app: request.auth }));
  app.post('/upload', async () => {
    handled++;
    return {};
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: Number(new URL(address).port), calls, handled: () => handled };
}

/** Sends raw bytes and resolves with the status line and raw header block. */
function send(port: number, raw: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body });
    });
  });
}

describe('credentials on the wire', () => {
  it('a single Authorization line authenticates', async (t) => {
    const server = await listening(t);
    const response = await send(
      server.port,
      'GET /bearer HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 200);
    assert.match(response.body, /"token":"ann"/);
  });

  it('two Authorization lines answer 400 and neither hook nor handler runs', async (t) => {
    const server = await listening(t);
    const response = await send(
      server.port,
      'GET /bearer HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nauthorization: Bearer evil\r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 400);
    assert.match(response.body, /"detail":"Bad Request"/);
    assert.deepEqual(server.calls, []);
    assert.equal(server.handled(), 0);
  });

  it('a repeated API-key header answers 400 instead of a joined value', async (t) => {
    const server = await listening(t);
    const response = await send(
      server.port,
      'GET /key HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nx-api-key: k\r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 400);
    assert.deepEqual(server.calls, []);
  });

  it('sends each challenge on its own WWW-Authenticate line', async (t) => {
    const server = await listening(t);
    const response = await send(
      server.port,
      'GET /bearer HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 401);
    assert.match(response.head, /\r\nwww-authenticate: Bearer realm="api", error="invalid_token"/i);
    assert.match(response.head, /content-type: application\/json; charset=utf-8/i);
  });

  it('answers 401, not 413, to an unauthenticated oversized body, before reading it', async (t) => {
    const server = await listening(t);
    const body = 'x'.repeat(64 * 1024);
    const response = await send(
      server.port,
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.equal(response.status, 401);
    assert.equal(server.handled(), 0);
  });
});
