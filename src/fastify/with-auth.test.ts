import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allOf, APIKeyHeader, HttpBearer } from '../index.js';
import { build } from '../../test/helpers/build.js';
import { authOf, withAuth } from './with-auth.js';

const bearer = new HttpBearer({
  authenticate: (_r, token) => (token === 't' ? { id: 7 } : undefined),
});
const key = new APIKeyHeader({ authenticate: (_r, k) => (k === 'k' ? 'app' : undefined) });
const ip = (request: { ip: string }) => request.ip;

describe('withAuth', () => {
  it('declares the route auth and hands the handler the typed value', async (t) => {
    const app = await build(t);
    app.get(
      '/me',
      withAuth(bearer, async (request) => ({ id: request.auth.id })),
    );
    assert.deepEqual(
      (await app.inject({ url: '/me', headers: { authorization: 'Bearer t' } })).json(),
      { id: 7 },
    );
    assert.equal((await app.inject({ url: '/me' })).statusCode, 401);
  });
});

describe('authOf', () => {
  it('returns request.auth when the given auth authenticated the request', async (t) => {
    const app = await build(t, { auth: [bearer, key, ip], csrf: false });
    app.get('/who', async (request) => {
      if (request.headers.authorization !== undefined)
        return { via: 'bearer', id: authOf(request, bearer).id };
      if (request.headers.key !== undefined)
        return { via: 'key', app: authOf(request, [key, bearer]) };
      return { via: 'ip', ip: authOf(request, ip) };
    });
    app.get('/both', { auth: allOf(bearer, key) }, async (request) => {
      const [user, application] = authOf(request, allOf(bearer, key));
      return { id: user.id, application };
    });
    app.get('/open', { auth: null }, async (request) => {
      authOf(request, null); // throws unless no authentication ran
      return { none: request.auth === undefined };
    });
    assert.deepEqual(
      (await app.inject({ url: '/who', headers: { authorization: 'Bearer t' } })).json(),
      { via: 'bearer', id: 7 },
    );
    assert.deepEqual((await app.inject({ url: '/who', headers: { key: 'k' } })).json(), {
      via: 'key',
      app: 'app',
    });
    assert.deepEqual((await app.inject({ url: '/who' })).json(), { via: 'ip', ip: '127.0.0.1' });
    assert.deepEqual(
      (await app.inject({ url: '/both', headers: { authorization: 'Bearer t', key: 'k' } })).json(),
      { id: 7, application: 'app' },
    );
    assert.deepEqual((await app.inject({ url: '/open' })).json(), { none: true });
  });

  it('throws rather than guess when another authenticator won: a generic 500, logged', async (t) => {
    const logged: string[] = [];
    const stream = { write: (line: string) => void logged.push(line) };
    const app = await build(t, { auth: [bearer, key], csrf: false }, { logger: { stream } });
    app.get('/who', async (request) => authOf(request, bearer));
    app.get('/open', { auth: null }, async (request) => authOf(request, bearer));
    for (const url of ['/who?key=k', '/open?secret=s3cret']) {
      const response = await app.inject({ url, headers: { key: 'k' } });
      assert.equal(response.statusCode, 500, url);
      assert.deepEqual(response.json(), { detail: 'Internal Server Error' });
    }
    const errors = logged.filter((line) => line.includes('"level":50'));
    assert.equal(errors.length, 2);
    assert.match(errors[0] ?? '', /authOf\(\): GET \/who was not authenticated by the given auth/);
    assert.doesNotMatch(errors.join(''), /s3cret/, 'the message names the route, not the URL');
  });
});
