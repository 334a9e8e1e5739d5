// The introspection request on the wire, and what counts as an endpoint that could not answer:
// a local server that misbehaves on purpose, as no real authorization server does on demand
// (the real server's answers are in introspection-bearer.test.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { errorCodes, StoreUnavailableError } from '../core/errors.js';
import { introspectToken, type IntrospectionCall } from './introspect-token.js';

const TOKEN = 'opaque-token-value_1';

/** An endpoint answering each request with `answer`, closed when the test ends. */
async function endpoint(
  t: TestContext,
  answer: (request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<URL> {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      answer(request, body, response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`);
}

function call(url: URL, overrides: Partial<IntrospectionCall> = {}): IntrospectionCall {
  return {
    endpoint: url,
    client: { id: 'api', secret: 's3cret: +&=%', authentication: 'client_secret_basic' },
    timeout: 1000,
    ...overrides,
  };
}

function json(response: ServerResponse, status: number, value: unknown): ServerResponse {
  return response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify(value));
}

/** Asserts that `promise` rejects with a 503 naming the endpoint and not the token. */
async function unavailable(promise: Promise<unknown>, url: URL, why: RegExp): Promise<void> {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.equal(error.code, errorCodes.storeUnavailable);
    assert.equal(error.statusCode, 503);
    assert.match(error.message, why);
    assert.ok(error.message.includes(url.href));
    assert.ok(!JSON.stringify(error, ['message', 'cause', 'name']).includes(TOKEN));
    assert.ok(!String(error.cause).includes(TOKEN));
    return true;
  });
}

describe('introspectToken', () => {
  it('RFC 7662 §2.1: POSTs the token form-encoded with a hint, as a client, asking for JSON', async (t) => {
    const seen: { headers: IncomingMessage['headers']; body: string }[] = [];
    const url = await endpoint(t, (request, body, response) => {
      seen.push({ headers: request.headers, body });
      json(response, 200, { active: true, scope: 'a b' });
    });

    assert.deepEqual(await introspectToken(call(url), TOKEN), { active: true, scope: 'a b' });
    const basic = seen[0];
    assert.ok(basic !== undefined);
    assert.equal(basic.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(basic.headers.accept, 'application/json');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(basic.body)), {
      token: TOKEN,
      token_type_hint: 'access_token',
    });
    // RFC 6749 §2.3.1: each part form-encoded before base64.
    const decoded = atob((basic.headers.authorization ?? '').replace(/^Basic /, ''));
    assert.equal(decoded, 'api:s3cret%3A+%2B%26%3D%25');

    const post = call(url, {
      client: { id: 'api', secret: 's3cret', authentication: 'client_secret_post' },
    });
    await introspectToken(post, TOKEN);
    assert.equal(seen[1]?.headers.authorization, undefined);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(seen[1]?.body)), {
      token: TOKEN,
      token_type_hint: 'access_token',
      client_id: 'api',
      client_secret: 's3cret',
    });
  });

  it('answers not active to a 400 unsupported_token_type (a JWT, to oidc-provider)', async (t) => {
    const url = await endpoint(t, (_request, _body, response) => {
      json(response, 400, { error: 'unsupported_token_type' });
    });
    assert.deepEqual(await introspectToken(call(url), TOKEN), { active: false });
  });

  const broken: readonly [string, (response: ServerResponse) => unknown, RegExp][] = [
    ['a 500', (response) => json(response, 500, { error: 'server_error' }), /answered 500/],
    [
      'a 401 (the resource’s own credentials refused)',
      (response) => json(response, 401, { error: 'invalid_client' }),
      /answered 401/,
    ],
    ['another 400', (response) => json(response, 400, { error: 'invalid_request' }), /400/],
    [
      'a redirect, which would carry the token elsewhere',
      (response) => response.writeHead(307, { location: 'http://127.0.0.1:9/' }).end(),
      /answered 307/,
    ],
    [
      'HTML',
      (response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
      /RFC 7662/,
    ],
    ['a JSON array', (response) => json(response, 200, [true]), /RFC 7662/],
    ['no active member', (response) => json(response, 200, { scope: 'a' }), /RFC 7662/],
    ['active as a string', (response) => json(response, 200, { active: 'true' }), /RFC 7662/],
  ];
  for (const [what, answer, why] of broken) {
    it(`is a 503 when the endpoint answers ${what}`, async (t) => {
      const url = await endpoint(t, (_request, _body, response) => {
        answer(response);
      });
      await unavailable(introspectToken(call(url), TOKEN), url, why);
    });
  }

  it('is a 503 within the timeout when the endpoint does not answer, or stops mid-answer', async (t) => {
    const silent = await endpoint(t, () => undefined);
    const started = performance.now();
    await unavailable(
      introspectToken(call(silent, { timeout: 200 }), TOKEN),
      silent,
      /could not be reached in 200 ms/,
    );
    const halfway = await endpoint(t, (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).write('{"active":');
    });
    await unavailable(introspectToken(call(halfway, { timeout: 200 }), TOKEN), halfway, /200 ms/);
    assert.ok(performance.now() - started < 1500, 'both ended by their timeouts');
  });

  it('is a 503 when nothing listens', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const closed = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    server.close();
    await once(server, 'close');
    await unavailable(introspectToken(call(closed), TOKEN), closed, /could not be reached/);
  });
});
