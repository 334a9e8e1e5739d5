// What vouch reads where a runtime hands Hono only Fetch `Headers` (Bun, Deno, workerd): a header
// sent on several lines arrives as one, joined with ", ", as the README's caveat says.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import { APIKeyCookie, APIKeyHeader, HttpBearer } from '../index.js';
import { createCsrfVerifier } from '../csrf/csrf-protection.js';
import { requireAuth } from './index.js';

const keys = new Map([['key-1', 'app']]);
const bearer = new HttpBearer({ tokens: new Map([['good', 'ann']]) });
const headerKey = new APIKeyHeader({ paramName: 'X-API-Key', keys });
const cookieKey = new APIKeyCookie({ paramName: 'k', keys });

function app(): Hono {
  const hono = new Hono();
  hono.get('/bearer', requireAuth(bearer), (c) => c.text('ok'));
  hono.get('/header', requireAuth(headerKey), (c) => c.text('ok'));
  const csrf = createCsrfVerifier({
    secret: 'test-secret-of-sufficient-length-0123456789',
    trustedOrigins: [],
  });
  hono.get('/cookie', requireAuth(cookieKey, { csrf }), (c) => c.text('ok'));
  return hono;
}

/** Headers holding `lines` as a Fetch runtime holds them once it has joined them. */
function joined(lines: readonly (readonly [string, string])[]): Headers {
  const headers = new Headers();
  for (const [name, value] of lines) headers.append(name, value);
  return headers;
}

test('a repeated Authorization or API-key line, joined, is an invalid credential: 401', async () => {
  const twice = joined([
    ['authorization', 'Bearer good'],
    ['authorization', 'Bearer good'],
  ]);
  assert.equal(twice.get('authorization'), 'Bearer good, Bearer good');
  assert.equal((await app().request('/bearer', { headers: twice })).status, 401);
  const keyTwice = joined([
    ['x-api-key', 'key-1'],
    ['x-api-key', 'key-1'],
  ]);
  assert.equal((await app().request('/header', { headers: keyTwice })).status, 401);
  assert.equal((await app().request('/header', { headers: { 'x-api-key': 'key-1' } })).status, 200);
});

test("Cookie lines joined with ', ' (workerd): a cookie after the first line is not read", async () => {
  const status = async (cookie: string) =>
    (await app().request('/cookie', { headers: { cookie } })).status;
  assert.equal(await status('k=key-1'), 200);
  // In the second line: not found.
  assert.equal(await status('other=1, k=key-1'), 401);
  // In the first line: the next line becomes part of its value.
  assert.equal(await status('k=key-1, other=1'), 401);
  // Sent twice: one value, not an ambiguous pair (400).
  assert.equal(await status('k=key-1, k=key-1'), 401);
});
