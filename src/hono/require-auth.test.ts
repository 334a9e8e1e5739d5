import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { APIKeyCookie, ConfigurationError, HttpBasic, HttpBearer } from '../index.js';
import { createCsrfVerifier } from '../csrf/csrf-protection.js';
import { authOf, requireAuth, vouchErrorHandler } from './index.js';

const csrf = createCsrfVerifier({
  secret: 'test-secret-of-sufficient-length-0123456789',
  trustedOrigins: ['http://app.test'],
});
const cookieKey = new APIKeyCookie({ paramName: 'k', keys: new Map([['key-1', 'app']]) });
const bearer = new HttpBearer({
  authenticate: (_request, token) => {
    if (token === 'teapot') throw new HTTPException(418);
    if (token === 'boom') throw new Error('boom');
    return token === 'good' ? 'ann' : undefined;
  },
});

test('cookie-based auth without csrf options is refused when declared', () => {
  assert.throws(() => requireAuth(cookieKey), { code: 'VOUCH_ERR_CONFIGURATION' });
});

test('CSRF on a cookie key: header token, form token, none', async () => {
  const app = new Hono();
  app.post('/k', requireAuth(cookieKey, { csrf }), (c) => c.json({ auth: c.get('auth') }));
  const { token } = csrf.issue('key-1');
  const cookie = `k=key-1; csrftoken=${token}`;
  const post = (headers: Record<string, string>, body: string | null = null) =>
    app.request('/k', {
      method: 'POST',
      headers: { origin: 'http://app.test', cookie, ...headers },
      body,
    });
  const header = await post({ 'x-csrftoken': token });
  assert.equal(header.status, 200);
  assert.equal(header.headers.get('cache-control'), 'private');
  const form = 'application/x-www-form-urlencoded';
  const fromForm = await post({ 'content-type': form }, `csrfmiddlewaretoken=${token}`);
  assert.deepEqual(await fromForm.json(), { auth: 'app' });
  const without = await post({ 'content-type': form }, 'a=1');
  assert.equal(without.status, 403);
  assert.deepEqual(await without.json(), { detail: 'CSRF check Failed' });
  const broken = await post({ 'content-type': 'multipart/form-data; boundary=x' }, 'not multipart');
  assert.equal(broken.status, 403);
});

test('a Response the handler returns keeps its own Cache-Control; one without is private', async () => {
  const app = new Hono();
  const own = { 'cache-control': 'no-store' };
  app.get('/own', requireAuth(cookieKey, { csrf }), () => new Response('own', { headers: own }));
  app.get('/none', requireAuth(cookieKey, { csrf }), () => new Response('none'));
  const headers = { cookie: 'k=key-1' };
  assert.equal((await app.request('/own', { headers })).headers.get('cache-control'), 'no-store');
  assert.equal((await app.request('/none', { headers })).headers.get('cache-control'), 'private');
});

test("authOf gives the winner's value, and throws when something else won", async () => {
  const basic = new HttpBasic({ authenticate: (_request, username) => username });
  const errors: Error[] = [];
  const app = new Hono();
  app.onError(vouchErrorHandler({ log: (_message, error) => errors.push(error) }));
  const sub = new Hono();
  sub.get('/who', requireAuth([bearer, basic]), (c) => {
    const user: string = authOf(c, bearer);
    return c.json({ auth: user });
  });
  sub.get('/open', requireAuth(null), (c) => {
    authOf(c, null); // throws unless no authentication ran
    return c.json({ auth: null });
  });
  app.route('/r', sub);
  const BEARER = { authorization: 'Bearer good' };
  assert.deepEqual(await (await app.request('/r/who', { headers: BEARER })).json(), {
    auth: 'ann',
  });
  assert.deepEqual(await (await app.request('/r/open', { headers: BEARER })).json(), {
    auth: null,
  });
  const other = await app.request('/r/who?secret=s3cret', {
    headers: { authorization: `Basic ${btoa('bob:pw')}` },
  });
  assert.equal(other.status, 500);
  assert.deepEqual(await other.json(), { detail: 'Internal Server Error' });
  assert.equal(errors.length, 1);
  assert.ok(errors[0] instanceof ConfigurationError);
  // The route, not the URL, which may carry a credential.
  assert.equal(errors[0].message, 'authOf(): GET /r/who was not authenticated by the given auth');
});

test('without raw header lines (any Fetch runtime), the parsed headers are read', async () => {
  const app = new Hono();
  app.get('/b', requireAuth(bearer), (c) => c.text(c.get('auth')));
  const ok = await app.request('/b', { headers: { authorization: 'Bearer good' } });
  assert.equal(await ok.text(), 'ann');
});

test("a sub-app with its own onError: the route's requireAuth still decides", async () => {
  const app = new Hono();
  app.use('*', requireAuth(bearer));
  const sub = new Hono();
  sub.onError(vouchErrorHandler());
  sub.get('/open', requireAuth(null), (c) => c.text('open'));
  // Wrapped with the sub-app's onError, a handler keeps its own number of parameters.
  sub.all('/answers', (c) => c.text('answered'));
  app.route('/sub', sub);
  app.get('/sub/answers', requireAuth(null), (c) => c.text('never reached'));
  assert.equal((await app.request('/sub/open')).status, 200);
  assert.equal((await app.request('/sub/answers')).status, 401);
});

test("vouchErrorHandler: Hono's HTTPException keeps its answer; others are logged 500s", async (t) => {
  const logged = t.mock.method(console, 'error', () => undefined);
  const app = new Hono();
  app.onError(vouchErrorHandler());
  app.get('/b', requireAuth(bearer), (c) => c.text('never'));
  const teapot = await app.request('/b', { headers: { authorization: 'Bearer teapot' } });
  assert.equal(teapot.status, 418);
  const boom = await app.request('/b', { headers: { authorization: 'Bearer boom' } });
  assert.equal(boom.status, 500);
  assert.deepEqual(await boom.json(), { detail: 'Internal Server Error' });
  assert.equal(logged.mock.callCount(), 1);
});

test('a weaker declaration never covers a handler matched before it (fail closed)', async () => {
  const app = new Hono();
  app.use('*', requireAuth(bearer));
  app.use('*', async (_c, next) => next()); // middleware for every method: the search goes on
  app.get('/x/*', (c) => c.text('shadowing handler'));
  app.get('/x/y', requireAuth(null), (c) => c.text('never reached'));
  app.get('/open', requireAuth(null), (c) => c.text('open'));
  const shadowed = await app.request('/x/y');
  assert.equal(shadowed.status, 401);
  const authenticated = await app.request('/x/y', { headers: { authorization: 'Bearer good' } });
  assert.equal(await authenticated.text(), 'shadowing handler');
  assert.equal(await (await app.request('/open')).text(), 'open');
});

test('a requireAuth called from another handler decides for itself', async () => {
  const app = new Hono();
  app.use('*', (c, next) => requireAuth(bearer)(c as never, next));
  app.get('/w', requireAuth(null), (c) => c.text('open'));
  assert.equal((await app.request('/w')).status, 401);
  const authenticated = await app.request('/w', { headers: { authorization: 'Bearer good' } });
  assert.equal(await authenticated.text(), 'open');
});

test('scopes are refused when declared without authentication or malformed', () => {
  assert.throws(() => requireAuth(null, { scopes: ['admin'] }), {
    code: 'VOUCH_ERR_CONFIGURATION',
    message: 'requireAuth(): scopes need authentication; this route has none',
  });
  assert.throws(() => requireAuth(bearer, { scopes: [] }), { code: 'VOUCH_ERR_CONFIGURATION' });
});
