// What only a real HTTP parser shows: Node keeps the first of two Authorization lines and joins
// repeated custom headers, so these requests are sent byte for byte over a socket.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { clientErrorHandler } from '../../src/fastify/index.js';
import { APIKeyHeader, HttpBearer } from '../../src/index.js';
import { build } from '../helpers/build.js';
import { sendRaw } from '../helpers/raw-http.js';

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

describe('credentials on the wire', () => {
  it('a single Authorization line authenticates', async (t) => {
    const server = await listening(t);
    const response = await sendRaw(
      server.port,
      'GET /bearer HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 200);
    assert.match(response.body, /"token":"ann"/);
  });

  it('two Authorization lines answer 400 and neither hook nor handler runs', async (t) => {
    const server = await listening(t);
    const response = await sendRaw(
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
    const response = await sendRaw(
      server.port,
      'GET /key HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nx-api-key: k\r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 400);
    assert.deepEqual(server.calls, []);
  });

  it('a repeated API-key header answers 400 even when one of its lines is empty', async (t) => {
    const server = await listening(t);
    for (const lines of ['X-API-Key: k\r\nX-API-Key: \r\n', 'X-API-Key: \r\nX-API-Key: k\r\n']) {
      const response = await sendRaw(
        server.port,
        `GET /key HTTP/1.1\r\nHost: x\r\n${lines}Connection: close\r\n\r\n`,
      );
      assert.equal(response.status, 400, JSON.stringify(lines));
    }
    assert.deepEqual(server.calls, []);
  });

  it('sends each challenge on its own WWW-Authenticate line', async (t) => {
    const server = await listening(t);
    const response = await sendRaw(
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
    const response = await sendRaw(
      server.port,
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.equal(response.status, 401);
    assert.equal(server.handled(), 0);
  });
});

// vouch reads a credential header from the lines as sent (rawHeaders), never building Node's
// parsed headers object; that rests on the line of a header sent once being exactly the value
// Node would parse, whitespace trimmed alike, proved here for this Node.
describe("Node's parser and the raw header lines", () => {
  it('gives a header sent once the same value in rawHeaders as in headers', async (t) => {
    const server = createServer((request, response) => {
      response.setHeader('connection', 'close');
      response.end(JSON.stringify({ raw: request.rawHeaders, parsed: request.headers }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const { port } = server.address() as AddressInfo;
    const lines = [
      'aUtHoRiZaTiOn:   Bearer a.b~c+/=  ',
      'X-API-Key:\tk\t',
      'X-Empty:',
      'X-Blank:   ',
      'X-Inner: a  b\tc',
      'Cookie: a=1; b=2',
      'Origin: https://app.example',
      'X-Latin: caf\u00e9',
    ];
    const { body } = await sendRaw(
      port,
      `GET / HTTP/1.1\r\nHost: x\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`,
    );
    const { raw, parsed } = JSON.parse(body) as {
      raw: string[];
      parsed: Record<string, string>;
    };
    assert.equal(raw.length, (lines.length + 2) * 2);
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      assert.equal(raw[i + 1], parsed[name.toLowerCase()], name);
    }
    assert.equal(parsed.authorization, 'Bearer a.b~c+/=');
    assert.equal(parsed['x-api-key'], 'k');
    assert.equal(parsed['x-blank'], '');
  });
});

describe('credentials read from the lines as sent', () => {
  it('trims the whitespace around a credential and folds the name as Node does', async (t) => {
    const server = await listening(t);
    const bearer = await sendRaw(
      server.port,
      'GET /bearer HTTP/1.1\r\nHost: x\r\naUtHoRiZaTiOn:   Bearer good  \r\nConnection: close\r\n\r\n',
    );
    assert.equal(bearer.status, 200);
    const key = await sendRaw(
      server.port,
      'GET /key HTTP/1.1\r\nHost: x\r\nx-api-KEY:\tk \r\nConnection: close\r\n\r\n',
    );
    assert.equal(key.status, 200);
    assert.deepEqual(server.calls, ['good', 'k']);
  });

  it('an empty credential line is absent (401), not an empty credential', async (t) => {
    const server = await listening(t);
    const response = await sendRaw(
      server.port,
      'GET /key HTTP/1.1\r\nHost: x\r\nX-API-Key:  \r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 401);
    assert.deepEqual(server.calls, []);
  });
});

describe('what the HTTP parser refuses, with clientErrorHandler', () => {
  async function server(t: TestContext): Promise<number> {
    const app = await build(t, { csrf: false }, { clientErrorHandler });
    app.get('/open', { auth: null }, async () => ({ ok: true }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    return Number(new URL(address).port);
  }

  const refused: readonly [string, string, number, string][] = [
    ['a NUL in a header value', 'X-A: a\0b\r\n', 400, 'Bad Request'],
    ['a folded header line', 'X-A: a\r\n b\r\n', 400, 'Bad Request'],
    ['a bare CR in a header value', 'X-A: a\rb\r\n', 400, 'Bad Request'],
    ['a space before the colon', 'X-A : a\r\n', 400, 'Bad Request'],
    [
      'headers past the limit',
      `X-A: ${'a'.repeat(20_000)}\r\n`,
      431,
      'Request Header Fields Too Large',
    ],
  ];
  for (const [name, header, status, detail] of refused) {
    it(`${name}: ${status} with a { detail } body`, async (t) => {
      const port = await server(t);
      const response = await sendRaw(port, `GET /open HTTP/1.1\r\nHost: x\r\n${header}\r\n`);
      assert.equal(response.status, status);
      assert.match(response.head, /^content-type: application\/json; charset=utf-8$/im);
      assert.deepEqual(JSON.parse(response.body), { detail });
    });
  }

  it('a sound request is untouched', async (t) => {
    const port = await server(t);
    const response = await sendRaw(
      port,
      'GET /open HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body), { ok: true });
  });
});
