// JwtBearer's answers as a client sees them: Fastify with the vouch plugin over a real socket,
// and Hono, against a real JWKS server.
import assert from 'node:assert/strict';
import { before, describe, it, type TestContext } from 'node:test';
import { Hono } from 'hono';
import { build } from '../../test/helpers/build.js';
import {
  AUDIENCE,
  epoch,
  handMade,
  ISSUER,
  jwksServer,
  sign,
  testKey,
  type TestKey,
} from '../../test/helpers/jwt.js';
import { requireAuth, vouchErrorHandler } from '../hono/index.js';
import { JwtBearer } from './index.js';

function jwtBearer(jwksUrl: string): JwtBearer {
  return new JwtBearer({ jwksUrl, issuer: ISSUER, audience: AUDIENCE, algorithms: ['ES256'] });
}

/** A Fastify API whose routes need the JWT, listening on a loopback port; its origin. */
async function fastifyApi(t: TestContext, bearer: JwtBearer): Promise<string> {
  const app = await build(t, { csrf: false, auth: bearer });
  app.get('/me', async (request) => ({ auth: request.auth }));
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describe('JwtBearer over HTTP', () => {
  let key: TestKey;
  before(async () => {
    key = await testKey('ES256');
  });

  it('Fastify: 200 with a valid token, 401 without one or with a refused one', async (t) => {
    const jwks = await jwksServer(t, [key.jwk]);
    const origin = await fastifyApi(t, jwtBearer(jwks.url));
    const get = (authorization?: string) =>
      fetch(`${origin}/me`, authorization === undefined ? {} : { headers: { authorization } });

    const ok = await get(`Bearer ${await sign(key)}`);
    assert.equal(ok.status, 200);
    const { auth } = (await ok.json()) as { auth: Record<string, unknown> };
    assert.equal(auth['sub'], 'user-1');
    assert.equal(auth['scope'], 'pets:read pets:write');

    const none = await get();
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="api"');
    assert.equal(await none.text(), '{"detail":"Unauthorized"}');

    const refused = [
      await sign(key, { claims: { exp: epoch(-60) } }),
      await sign(key, { claims: { aud: 'https://elsewhere.test/' } }),
      await sign(await testKey('ES256', key.kid)),
      handMade({ alg: 'none' }, { iss: ISSUER, aud: AUDIENCE, exp: epoch(60) }),
      'eyJhbGciOiJFUzI1NiJ9.garbage.x',
      `${'a'.repeat(5000)}.b.c`,
    ];
    for (const token of refused) {
      const response = await get(`Bearer ${token}`);
      assert.equal(response.status, 401);
      assert.equal(
        response.headers.get('www-authenticate'),
        'Bearer realm="api", error="invalid_token"',
      );
      assert.equal(await response.text(), '{"detail":"Unauthorized"}');
    }
  });

  it('Fastify: 503 with Retry-After when the JWKS is down, and the token never logged', async (t) => {
    const jwks = await jwksServer(t, [key.jwk]);
    const lines: string[] = [];
    const { default: Fastify } = await import('fastify');
    const { vouch } = await import('../fastify/index.js');
    const app = Fastify({
      logger: { level: 'debug', stream: { write: (line: string) => lines.push(line) } },
    });
    t.after(() => app.close());
    await app.register(vouch, { csrf: false, auth: jwtBearer(jwks.url) });
    app.get('/me', async (request) => ({ auth: request.auth }));
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });

    jwks.mode = 'status-500';
    const token = await sign(key);
    const response = await fetch(`${origin}/me`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '5');
    assert.equal(await response.text(), '{"detail":"Service Unavailable"}');
    assert.ok(
      lines.some((line) => line.includes('could not be used')),
      'the outage is logged',
    );
    assert.ok(!lines.some((line) => line.includes(token)), 'the token is not');
  });

  it('Fastify: the scope and scp claims grant scopes; a map must keep them', async (t) => {
    const jwks = await jwksServer(t, [key.jwk]);
    const bearer = jwtBearer(jwks.url);
    const mapped = new JwtBearer({
      jwksUrl: jwks.url,
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['ES256'],
      name: 'mappedJwt',
      map: (payload) => ({ id: payload.sub }),
    });
    const app = await build(t, { csrf: false });
    app.get('/pets', { auth: bearer, scopes: ['pets:read'] }, async () => 'pets');
    app.get('/admin', { auth: bearer, scopes: ['admin'] }, async () => 'admin');
    app.get('/mapped', { auth: mapped, scopes: ['pets:read'] }, async () => 'mapped');
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const get = async (path: string, token: string) =>
      fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } });

    const scope = await sign(key); // scope: 'pets:read pets:write'
    const scp = await sign(key, { claims: { scope: undefined, scp: ['admin'] } });
    assert.equal((await get('/pets', scope)).status, 200);
    assert.equal((await get('/admin', scp)).status, 200);
    const lacking = await get('/admin', scope);
    assert.equal(lacking.status, 403);
    assert.equal(
      lacking.headers.get('www-authenticate'),
      'Bearer realm="api", error="insufficient_scope", scope="admin"',
    );
    assert.equal((await get('/mapped', scope)).status, 403, 'the map dropped the scope claim');
  });

  it('Hono: the same 200, 401 and 503', async (t) => {
    const jwks = await jwksServer(t, [key.jwk]);
    const gone = await jwksServer(t, [key.jwk]);
    await gone.close();
    const logged: [string, Error][] = [];
    const app = new Hono();
    app.onError(vouchErrorHandler({ log: (message, error) => logged.push([message, error]) }));
    app.get('/me', requireAuth(jwtBearer(jwks.url)), (c) => c.json({ sub: c.get('auth').sub }));
    app.get('/down', requireAuth(jwtBearer(gone.url)), (c) => c.json({ sub: c.get('auth').sub }));
    const get = async (token: string, path = '/me') =>
      app.request(path, { headers: { authorization: `Bearer ${token}` } });

    assert.deepEqual(await (await get(await sign(key))).json(), { sub: 'user-1' });
    const refused = await get(await sign(key, { claims: { iss: 'https://evil.test/' } }));
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get('www-authenticate'),
      'Bearer realm="api", error="invalid_token"',
    );
    assert.deepEqual(await refused.json(), { detail: 'Unauthorized' });

    const token = await sign(key);
    const down = await get(token, '/down');
    assert.equal(down.status, 503);
    assert.equal(down.headers.get('retry-after'), '5');
    assert.deepEqual(await down.json(), { detail: 'Service Unavailable' });
    assert.deepEqual(
      logged.map(([message, error]) => [message, error.message]),
      [['vouch: credential store unavailable', `JWKS ${gone.url} could not be used`]],
    );
  });
});
