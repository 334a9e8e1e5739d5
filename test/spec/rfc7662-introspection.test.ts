// RFC 7662 (Token Introspection) from the protected resource's side, against a real
// authorization server (oidc-provider) minting opaque access tokens at its token endpoint:
// §2.1 the request, §2.2 only `active: true` accepts, §4 answers cached no longer than the
// token lives; RFC 8707 the resource as the one audience; RFC 9449 a DPoP-bound token refused as
// a plain Bearer. The endpoint's calls are counted where it listens.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { Hono } from 'hono';
import { requireAuth, vouchErrorHandler } from '../../src/hono/index.js';
import { JwtBearer } from '../../src/jwt/index.js';
import {
  IntrospectionBearer,
  protectedResource,
  type IntrospectionAnswer,
  type IntrospectionBearerSettings,
} from '../../src/oauth/index.js';
import {
  JWT_RESOURCE,
  OPAQUE_RESOURCE,
  startAuthorizationServer,
  type AuthorizationServer,
} from '../helpers/authorization-server.js';
import { build } from '../helpers/build.js';
import { loopbackServer } from '../helpers/loopback-server.js';
import { tcpProxy } from '../helpers/tcp-proxy.js';

const OTHER_RESOURCE = 'https://other.test/api';
const SHORT_RESOURCE = 'https://short.test/api';
const INVALID_TOKEN = /^Bearer realm="api", error="invalid_token"/;

describe('RFC 7662 introspection (IntrospectionBearer against oidc-provider)', () => {
  let as: AuthorizationServer;
  let introspectionPath: string;
  before(async () => {
    as = await startAuthorizationServer({
      resources: {
        [OPAQUE_RESOURCE]: { format: 'opaque' },
        [OTHER_RESOURCE]: { format: 'opaque' },
        [SHORT_RESOURCE]: { format: 'opaque', ttl: 2 },
        [JWT_RESOURCE]: {},
      },
    });
    introspectionPath = new URL(as.introspectionEndpoint).pathname;
  });
  after(() => as.close());

  /** Introspections the server has received so far. */
  const calls = () => as.requestCount(introspectionPath);

  /** An IntrospectionBearer for `resource` at this server, as its resource server client. */
  function bearer<TAuth = IntrospectionAnswer>(
    options: Partial<IntrospectionBearerSettings<TAuth>> & { resourceId?: string } = {},
  ): IntrospectionBearer<TAuth> {
    const { resourceId = OPAQUE_RESOURCE, ...rest } = options;
    return new IntrospectionBearer<TAuth>({
      resource: protectedResource({ resource: resourceId, authorizationServers: [as.issuer] }),
      introspectionEndpoint: as.introspectionEndpoint,
      clientId: as.clients.introspector.clientId,
      clientSecret: as.clients.introspector.clientSecret,
      ...rest,
    });
  }

  /** A Fastify app whose `/tools` needs `mcp:tools` and `/admin` `mcp:admin`, from `auth`. */
  async function fastify(
    t: TestContext,
    auth: IntrospectionBearer<unknown>,
  ): Promise<(token: string, path?: string) => Promise<LightMyRequestResponse>> {
    const app = await build(t, { csrf: false });
    app.get('/tools', { auth, scopes: ['mcp:tools'] }, async (request) => ({
      auth: request.auth,
      frozen: Object.isFrozen(request.auth),
    }));
    app.get('/admin', { auth, scopes: ['mcp:admin'] }, async () => 'admin');
    return (token, path = '/tools') =>
      app.inject({ url: path, headers: { authorization: `Bearer ${token}` } });
  }

  async function opaqueToken(resource = OPAQUE_RESOURCE, scope = 'mcp:tools'): Promise<string> {
    return (await as.clientCredentialsToken({ resource, scope })).access_token;
  }

  it('§2.2: an active token is accepted; its scope is what routes’ scopes read', async (t) => {
    for (const clientAuthentication of ['client_secret_basic', 'client_secret_post'] as const) {
      const get = await fastify(t, bearer({ clientAuthentication }));
      const token = await opaqueToken();
      const ok = await get(token);
      assert.equal(ok.statusCode, 200, clientAuthentication);
      const { auth, frozen } = ok.json<{ auth: IntrospectionAnswer; frozen: boolean }>();
      assert.equal(auth.active, true);
      assert.equal(auth.client_id, 'service');
      assert.equal(auth.scope, 'mcp:tools');
      assert.equal(auth.aud, OPAQUE_RESOURCE);
      assert.equal(auth.iss, as.issuer);
      assert.equal(auth.token_type, 'Bearer');
      assert.equal(frozen, true, 'one cached answer serves many requests: none may change it');

      const admin = await get(token, '/admin');
      assert.equal(admin.statusCode, 403);
      assert.match(
        String(admin.headers['www-authenticate']),
        /error="insufficient_scope", scope="mcp:admin"/,
      );
    }
  });

  it('a map makes request.auth, and refuses with nothing', async (t) => {
    const mapped = bearer({
      map: (answer) => (answer.client_id === 'service' ? { scope: answer.scope } : undefined),
    });
    const token = await opaqueToken();
    const get = await fastify(t, mapped);
    assert.deepEqual((await get(token)).json<{ auth: unknown }>().auth, { scope: 'mcp:tools' });
    const refusing = await fastify(t, bearer({ map: () => undefined }));
    assert.equal((await refusing(token)).statusCode, 401);
  });

  it('a revoked token is refused (401) from the first request once cacheMaxAge has passed since the answer that accepted it', async (t) => {
    const get = await fastify(t, bearer({ cacheMaxAge: 1000 }));
    const token = await opaqueToken();
    assert.equal((await get(token)).statusCode, 200);
    const asked = calls();
    await as.revoke(token);

    const cached = await get(token);
    assert.equal(cached.statusCode, 200, 'within cacheMaxAge the accepting answer stands');
    assert.equal(calls(), asked, 'served from the cache');

    await sleep(1050);
    const refused = await get(token);
    assert.equal(refused.statusCode, 401);
    assert.equal(
      refused.headers['www-authenticate'],
      'Bearer realm="api", error="invalid_token", scope="mcp:tools", resource_metadata="https://opaque.test/.well-known/oauth-protected-resource/api"',
      'RFC 9728 §5.1: the challenge points to the resource’s metadata',
    );
    assert.deepEqual(refused.json(), { detail: 'Unauthorized' });
    assert.equal(calls(), asked + 1, 'asked again');

    const fresh = await fastify(t, bearer());
    assert.equal((await fresh(token)).statusCode, 401, 'never accepted once revoked');
  });

  it('a refusal is reused for negativeCacheMaxAge, then asked again', async (t) => {
    const get = await fastify(t, bearer({ negativeCacheMaxAge: 1000 }));
    const token = await opaqueToken();
    await as.revoke(token);
    const asked = calls();
    assert.equal((await get(token)).statusCode, 401);
    assert.equal((await get(token)).statusCode, 401);
    assert.equal(calls(), asked + 1, 'the second refusal came from the cache');
    await sleep(1050);
    assert.equal((await get(token)).statusCode, 401);
    assert.equal(calls(), asked + 2);
  });

  it('§4: an expired token is refused, and an accepted answer is never reused past exp', async (t) => {
    const get = await fastify(t, bearer({ resourceId: SHORT_RESOURCE, cacheMaxAge: 60_000 }));
    const token = await opaqueToken(SHORT_RESOURCE); // lives 2 s
    const ok = await get(token);
    assert.equal(ok.statusCode, 200);
    const exp = ok.json<{ auth: IntrospectionAnswer }>().auth.exp;
    assert.equal(typeof exp, 'number');
    assert.equal((await get(token)).statusCode, 200);
    const asked = calls();
    assert.equal(asked > 0, true);

    await sleep((exp as number) * 1000 - Date.now() + 50);
    const expired = await get(token);
    assert.equal(expired.statusCode, 401);
    assert.match(String(expired.headers['www-authenticate']), INVALID_TOKEN);
    assert.equal(calls(), asked + 1, 'the cached answer ended at exp, well before cacheMaxAge');
  });

  it('RFC 8707: a token for another resource, or for none, is refused', async (t) => {
    const get = await fastify(t, bearer());
    const other = await opaqueToken(OTHER_RESOURCE);
    assert.equal((await get(other)).statusCode, 401);
    const none = await as.clientCredentialsToken();
    assert.equal((await get(none.access_token)).statusCode, 401);
    // The other resource accepts its own token: the refusal was the audience.
    const theirs = await fastify(t, bearer({ resourceId: OTHER_RESOURCE, name: 'other' }));
    assert.equal((await theirs(other)).statusCode, 200);
  });

  it('RFC 9449: a DPoP-bound token sent as a plain Bearer is refused', async (t) => {
    const get = await fastify(t, bearer());
    const bound = await as.clientCredentialsToken({
      resource: OPAQUE_RESOURCE,
      scope: 'mcp:tools',
      dpop: true,
    });
    assert.equal(bound.token_type, 'DPoP');
    assert.equal((await get(bound.access_token)).statusCode, 401);
  });

  it('a JWT, which oidc-provider will not introspect, is refused, not a 503; a JwtBearer before it takes it', async (t) => {
    const jwt = (await as.clientCredentialsToken({ resource: JWT_RESOURCE, scope: 'mcp:tools' }))
      .access_token;
    const get = await fastify(t, bearer());
    assert.equal((await get(jwt)).statusCode, 401);

    const jwtBearer = new JwtBearer({
      jwksUrl: as.jwksUri,
      issuer: as.issuer,
      audience: JWT_RESOURCE,
      algorithms: ['RS256'],
    });
    const app = await build(t, { csrf: false });
    app.get('/either', { auth: [jwtBearer, bearer()], scopes: ['mcp:tools'] }, async () => 'ok');
    const either = (token: string) =>
      app.inject({ url: '/either', headers: { authorization: `Bearer ${token}` } });
    const opaque = await opaqueToken();
    assert.equal((await either(jwt)).statusCode, 200);
    assert.equal((await either(opaque)).statusCode, 200);
  });

  it('one introspection for 50 concurrent requests with the same token', async (t) => {
    const get = await fastify(t, bearer());
    const token = await opaqueToken();
    const asked = calls();
    const answers = await Promise.all(Array.from({ length: 50 }, () => get(token)));
    assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([200]));
    assert.equal(calls(), asked + 1);
  });

  it('a warm cache answers at once, without a promise or a call', async () => {
    const auth = bearer();
    const token = await opaqueToken();
    const header = `Bearer ${token}`;
    const view = { method: 'GET', url: '/', headers: { authorization: header } };
    const first = auth.verify(view);
    assert.ok(first instanceof Promise);
    assert.equal((await first).state, 'accepted');
    const asked = calls();
    const warm = auth.verify(view);
    assert.ok(!(warm instanceof Promise));
    assert.equal(warm.state, 'accepted');
    assert.equal(calls(), asked);
  });

  it('the endpoint discovered from the resource’s one authorization server (RFC 8414), once', async (t) => {
    const discovered = new IntrospectionBearer({
      resource: protectedResource({ resource: OPAQUE_RESOURCE, authorizationServers: [as.issuer] }),
      clientId: as.clients.introspector.clientId,
      clientSecret: as.clients.introspector.clientSecret,
    });
    const get = await fastify(t, discovered);
    const [first, second] = [await opaqueToken(), await opaqueToken()];
    const metadataPath = '/.well-known/oauth-authorization-server';
    const [looked, asked] = [as.requestCount(metadataPath), calls()];
    assert.equal((await get(first)).statusCode, 200);
    assert.equal((await get(second)).statusCode, 200);
    assert.equal(as.requestCount(metadataPath), looked + 1, 'the metadata is read once');
    assert.equal(calls(), asked + 2);
  });

  it('the endpoint discovered from authorizationServer, an issuer', async (t) => {
    const get = await fastify(
      t,
      new IntrospectionBearer({
        resource: protectedResource({
          resource: OPAQUE_RESOURCE,
          authorizationServers: [as.issuer],
        }),
        authorizationServer: as.issuer,
        clientId: as.clients.introspector.clientId,
        clientSecret: as.clients.introspector.clientSecret,
      }),
    );
    assert.equal((await get(await opaqueToken())).statusCode, 200);
  });

  it('an authorization server that names no introspection endpoint: 503, not a refusal', async (t) => {
    const issuer = await loopbackServer(t, (origin) => (request, response) => {
      response.writeHead(request.url === '/.well-known/oauth-authorization-server' ? 200 : 404, {
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ issuer: origin, jwks_uri: `${origin}/jwks` }));
    });
    const auth = new IntrospectionBearer({
      resource: protectedResource({ resource: OPAQUE_RESOURCE, authorizationServers: [issuer] }),
      clientId: 'api',
      clientSecret: 'secret',
    });
    const get = await fastify(t, auth);
    const answer = await get('some-token');
    assert.equal(answer.statusCode, 503);
    assert.equal(answer.headers['retry-after'], '5');
  });

  it('where the endpoint comes from is one choice', () => {
    const client = { clientId: 'api', clientSecret: 'secret' };
    const two = protectedResource({
      resource: OPAQUE_RESOURCE,
      authorizationServers: ['https://a.example', 'https://b.example'],
    });
    assert.throws(
      () => new IntrospectionBearer({ resource: two, ...client }),
      /introspectionEndpoint, or authorizationServer when its resource names other than one/,
    );
    assert.throws(
      () =>
        new IntrospectionBearer({
          resource: two,
          ...client,
          introspectionEndpoint: 'https://a.example/introspect',
          authorizationServer: 'https://a.example',
        }),
      /introspectionEndpoint or authorizationServer, not both/,
    );
    assert.ok(
      new IntrospectionBearer({
        resource: two,
        ...client,
        authorizationServer: 'https://b.example',
      }),
    );
  });

  it('Hono: the endpoint down is a 503 with Retry-After, nothing cached; the token never logged', async (t) => {
    const origin = new URL(as.introspectionEndpoint);
    const proxy = await tcpProxy(t, origin.hostname, Number(origin.port));
    const logged: [string, Error][] = [];
    const app = new Hono();
    app.onError(vouchErrorHandler({ log: (message, error) => logged.push([message, error]) }));
    const auth = bearer({
      introspectionEndpoint: `http://127.0.0.1:${proxy.port}${introspectionPath}`,
    });
    app.get('/tools', requireAuth(auth, { scopes: ['mcp:tools'] }), (c) =>
      c.json({ client: c.get('auth').client_id }),
    );
    const get = (token: string) =>
      app.request('/tools', { headers: { authorization: `Bearer ${token}` } });
    const token = await opaqueToken();

    proxy.cut();
    const down = await get(token);
    assert.equal(down.status, 503);
    assert.equal(down.headers.get('retry-after'), '5');
    assert.deepEqual(await down.json(), { detail: 'Service Unavailable' });

    proxy.restore();
    const asked = calls();
    const up = await get(token);
    assert.equal(up.status, 200, 'the outage was not cached');
    assert.deepEqual(await up.json(), { client: 'service' });
    assert.equal(calls(), asked + 1);

    assert.equal(logged.length, 1);
    const [message, error] = logged[0] ?? [];
    assert.equal(message, 'vouch: credential store unavailable');
    assert.match(
      String(error?.message),
      /^introspection endpoint http:\/\/127\.0\.0\.1:\d+\/.* could not be reached/,
    );
    assert.ok(!inspectError(error).includes(token), 'the token is nowhere in the error');
  });

  it('Fastify: a slow endpoint is a 503 within the timeout; the token never logged', async (t) => {
    const origin = new URL(as.introspectionEndpoint);
    const proxy = await tcpProxy(t, origin.hostname, Number(origin.port));
    const lines: string[] = [];
    const { default: Fastify } = await import('fastify');
    const { vouch } = await import('../../src/fastify/index.js');
    const app = Fastify({
      logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    });
    t.after(() => app.close());
    const auth = bearer({
      introspectionEndpoint: `http://127.0.0.1:${proxy.port}${introspectionPath}`,
      timeout: 300,
    });
    await app.register(vouch, { csrf: false, auth });
    app.get('/tools', { scopes: ['mcp:tools'] }, async () => 'tools');
    const token = await opaqueToken();
    const get = () => app.inject({ url: '/tools', headers: { authorization: `Bearer ${token}` } });

    proxy.silence();
    const started = performance.now();
    const slow = await get();
    const took = performance.now() - started;
    assert.equal(slow.statusCode, 503);
    assert.equal(slow.headers['retry-after'], '5');
    assert.ok(took >= 290 && took < 1500, `answered after ${String(took)} ms`);

    proxy.restore();
    assert.equal((await get()).statusCode, 200);
    const revoked = await opaqueToken();
    await as.revoke(revoked);
    const refused = await app.inject({
      url: '/tools',
      headers: { authorization: `Bearer ${revoked}` },
    });
    assert.equal(refused.statusCode, 401);

    assert.ok(
      lines.some((line) => line.includes('introspection endpoint') && line.includes('300 ms')),
      'the outage is logged',
    );
    assert.ok(!lines.some((line) => line.includes(token) || line.includes(revoked)));
  });
});

/** Everything an error says, its causes included, as a log would show it. */
function inspectError(error: unknown): string {
  let text = '';
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    text += `${cause.name}: ${cause.message}\n${String(cause.stack)}\n`;
  }
  return text;
}
