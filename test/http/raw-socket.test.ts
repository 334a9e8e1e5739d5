// What only a real HTTP parser shows: Node keeps the first of two Authorization lines and joins
// repeated custom headers, so these requests are sent byte for byte over a socket.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { APIKeyHeader, HttpBearer } from '../../src/index.js';
import { FIRST_LINE_KEPT } from '../../src/internal/single-header.js';
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

  it('a repeated API-key header answers 400 even when one of its lines is empty', async (t) => {
    const server = await listening(t);
    for (const lines of ['X-API-Key: k\r\nX-API-Key: \r\n', 'X-API-Key: \r\nX-API-Key: k\r\n']) {
      const response = await send(
        server.port,
        `GET /key HTTP/1.1\r\nHost: x\r\n${lines}Connection: close\r\n\r\n`,
      );
      assert.equal(response.status, 400, JSON.stringify(lines));
    }
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

// The duplicate check reads the raw lines only when the parsed value could hide a repetition;
// that rests on how Node's parser presents repeated lines, proved here for this Node.
describe("Node's parser and repeated header lines", () => {
  async function parsed(t: TestContext, lines: string): Promise<Record<string, unknown>> {
    const server = createServer((request, response) => {
      response.setHeader('connection', 'close');
      response.end(JSON.stringify(request.headers));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const { port } = server.address() as AddressInfo;
    const { body } = await send(port, `GET / HTTP/1.1\r\n${lines}Connection: close\r\n\r\n`);
    return JSON.parse(body) as Record<string, unknown>;
  }

  it('keeps only the first line of the headers vouch always counts', async (t) => {
    // Two Content-Length lines never reach a handler: the parser refuses the request.
    const names = [...FIRST_LINE_KEPT].filter((name) => name !== 'content-length');
    const lines = names.map((name) => `${name}: first\r\n${name}: second\r\n`).join('');
    const headers = await parsed(t, lines);
    for (const name of names) assert.equal(headers[name], 'first', name);
  });

  it('joins the lines of any other header with a separator, empty lines included', async (t) => {
    const headers = await parsed(
      t,
      'Host: x\r\nX-API-Key: k\r\nX-API-Key: \r\nX-Other: \r\nX-Other: k\r\n' +
        'Proxy-Authenticate: a\r\nProxy-Authenticate: b\r\nCookie: a=1\r\nCookie: b=2\r\n',
    );
    assert.equal(headers['x-api-key'], 'k, ');
    assert.equal(headers['x-other'], ', k');
    assert.equal(headers['proxy-authenticate'], 'a, b');
    assert.equal(headers.cookie, 'a=1; b=2');
  });
});
