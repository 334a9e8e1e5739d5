// RFC 9068 (JWT Profile for OAuth 2.0 Access Tokens) §4, as a JwtBearer given a protected resource
// applies it, with RFC 8707 (one audience, the resource) and RFC 9449/8705/7800 (a bound token is
// no Bearer token). Tokens come from oidc-provider's token endpoint; hand-made ones only for what
// it never mints.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import { decodeJwt, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { requireAuth, vouchErrorHandler } from '../../src/hono/index.js';
import { JwtBearer, type JwtBearerOptions } from '../../src/jwt/index.js';
import { protectedResource, type ProtectedResource } from '../../src/oauth/index.js';
import {
  JWT_RESOURCE,
  startAuthorizationServer,
  type AuthorizationServer,
} from '../helpers/authorization-server.js';
import { handMade, verifyBearer as verify } from '../helpers/jwt.js';

const OTHER = 'https://other.test/api';
const UNTYPED = 'https://untyped.test/api';
const SHARED = 'https://shared.test/api';

const rejected = { state: 'rejected' };

describe('RFC 9068 §4: a JwtBearer given a protected resource', () => {
  let as: AuthorizationServer;
  let api: ProtectedResource;
  let bearer: JwtBearer;
  /** A JwtBearer for `identifier`, trusting `as` (discovered) unless told otherwise. */
  const bearerFor = (identifier: string, options: Partial<JwtBearerOptions> = {}) =>
    new JwtBearer({
      resource: protectedResource({ resource: identifier, authorizationServers: [as.issuer] }),
      algorithms: ['RS256'],
      ...options,
    } as JwtBearerOptions);

  before(async () => {
    as = await startAuthorizationServer({
      resources: {
        [JWT_RESOURCE]: {},
        [OTHER]: {},
        [UNTYPED]: { typ: 'JWT' },
        [SHARED]: { extraAudiences: [OTHER] },
      },
    });
    api = protectedResource({ resource: JWT_RESOURCE, authorizationServers: [as.issuer] });
    bearer = new JwtBearer({ resource: api, algorithms: ['RS256'] });
  });
  after(() => as.close());

  const tokenFor = async (resource = JWT_RESOURCE, scope = 'mcp:tools') =>
    (await as.clientCredentialsToken({ resource, scope })).access_token;

  it('accepts a client credentials token for the resource: request.auth is its payload', async () => {
    const token = await tokenFor(JWT_RESOURCE, 'mcp:tools pets:read');
    const outcome = await verify(bearer, token);
    assert.equal(outcome.state, 'accepted');
    assert.deepEqual((outcome as { value: JWTPayload }).value, decodeJwt(token));
    assert.equal(bearer.resource, api, 'the resource goes on to HttpBearer');
  });

  it("accepts an authorization code + PKCE token, the user's", async () => {
    const { access_token } = await as.authorizationCodeToken({
      resource: JWT_RESOURCE,
      scope: 'mcp:tools',
      account: 'alice',
    });
    const outcome = await verify(bearer, access_token);
    assert.equal(outcome.state, 'accepted');
    assert.equal((outcome as { value: JWTPayload }).value.sub, 'alice');
  });

  describe('§4 (3), RFC 8707: aud is the resource, and nothing else', () => {
    it('refuses a token minted for another resource of the same server', async () => {
      assert.deepEqual(await verify(bearer, await tokenFor(OTHER)), rejected);
      assert.equal((await verify(bearerFor(OTHER), await tokenFor(OTHER))).state, 'accepted');
    });

    it('refuses a token minted for the resource and another (no pass-through)', async () => {
      const shared = await tokenFor(SHARED);
      assert.deepEqual(decodeJwt(shared).aud, [SHARED, OTHER]);
      assert.deepEqual(await verify(bearerFor(SHARED), shared), rejected);
      assert.deepEqual(await verify(bearerFor(OTHER), shared), rejected);
      // The same claims with the resource alone, signed by the same key, pass.
      const alone = await as.forge({ ...decodeJwt(shared), aud: [SHARED] });
      assert.equal((await verify(bearerFor(SHARED), alone)).state, 'accepted');
    });
  });

  describe('§4 (1): typ is at+jwt', () => {
    it('refuses a token typed JWT, unless typ: false gives the check up', async () => {
      const untyped = await tokenFor(UNTYPED);
      assert.deepEqual(await verify(bearerFor(UNTYPED), untyped), rejected);
      assert.equal((await verify(bearerFor(UNTYPED, { typ: false }), untyped)).state, 'accepted');
    });

    it('takes application/at+jwt and any case, refuses no typ at all', async () => {
      const payload = decodeJwt(await tokenFor());
      for (const typ of ['application/at+jwt', 'AT+JWT', 'Application/At+Jwt']) {
        const token = await as.forge(payload, { typ });
        assert.equal((await verify(bearer, token)).state, 'accepted', typ);
      }
      for (const typ of [undefined, 'JWT', 'at+jwt+x', 'application/jwt']) {
        const token = await as.forge(payload, { typ });
        assert.deepEqual(await verify(bearer, token), rejected, String(typ));
      }
    });
  });

  describe('§4 (4), (5): the signature, by the issuer, with an allowed algorithm', () => {
    it('refuses an unsigned token (alg none), made by hand', async () => {
      const payload = decodeJwt(await tokenFor());
      for (const signature of ['', 'c2ln']) {
        const unsigned = handMade({ alg: 'none', typ: 'at+jwt' }, payload, signature);
        assert.deepEqual(await verify(bearer, unsigned), rejected);
      }
    });

    it('refuses a token signed by a key the issuer does not publish', async () => {
      const real = await tokenFor();
      const { kid } = JSON.parse(atob(real.split('.')[0]!)) as { kid: string };
      const { privateKey } = await generateKeyPair('RS256');
      for (const header of [{ kid }, { kid: 'stranger' }, {}]) {
        const forged = await new SignJWT(decodeJwt(real))
          .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', ...header })
          .sign(privateKey);
        assert.deepEqual(await verify(bearer, forged), rejected, JSON.stringify(header));
      }
    });

    it('refuses a token signed with an algorithm not allowed, from the same server', async () => {
      const es256 = bearerFor(JWT_RESOURCE, { algorithms: ['ES256'] });
      assert.deepEqual(await verify(es256, await tokenFor()), rejected);
    });
  });

  it('§4 (7): refuses a token once expired (clockTolerance past exp)', async (t) => {
    const token = await tokenFor();
    assert.equal((await verify(bearer, token)).state, 'accepted');
    const { exp } = decodeJwt(token);
    t.mock.timers.enable({ apis: ['Date'], now: (exp! + 6) * 1000 });
    assert.deepEqual(await verify(bearer, token), rejected);
  });

  it('refuses a token bound to a key (DPoP, cnf.jkt) sent as a Bearer token', async () => {
    const bound = await as.clientCredentialsToken({ resource: JWT_RESOURCE, dpop: true });
    assert.equal(bound.token_type, 'DPoP');
    const payload = decodeJwt(bound.access_token);
    assert.ok(payload['cnf'], 'the server bound it');
    assert.deepEqual(await verify(bearer, bound.access_token), rejected);
    // The same claims without cnf, signed by the same key, pass: cnf is what refuses it.
    const unbound = { ...payload, cnf: undefined };
    assert.equal((await verify(bearer, await as.forge(unbound))).state, 'accepted');
    for (const cnf of [{ 'x5t#S256': 'abc' }, {}, null]) {
      const forged = await as.forge({ ...unbound, cnf });
      assert.deepEqual(await verify(bearer, forged), rejected, JSON.stringify(cnf));
    }
  });

  it('§2.2: refuses a token without sub or client_id, or with either not a string', async () => {
    const payload = decodeJwt(await tokenFor());
    const broken: Record<string, unknown>[] = [
      { sub: undefined },
      { client_id: undefined },
      { sub: '' },
      { sub: 7 },
      { client_id: ['service'] },
      { iss: undefined },
    ];
    for (const change of broken) {
      const claims = Object.fromEntries(
        Object.entries({ ...payload, ...change }).filter(([, value]) => value !== undefined),
      );
      assert.deepEqual(
        await verify(bearer, await as.forge(claims)),
        rejected,
        JSON.stringify(change),
      );
    }
  });

  it('§4 (2): refuses a token from an issuer not trusted, without asking it anything', async () => {
    const stranger = await startAuthorizationServer({ resources: { [JWT_RESOURCE]: {} } });
    try {
      const token = (await stranger.clientCredentialsToken({ resource: JWT_RESOURCE }))
        .access_token;
      const asked = stranger.requestCount();
      assert.deepEqual(await verify(bearer, token), rejected);
      assert.equal(stranger.requestCount(), asked);
      // Signed by the trusted server, naming the stranger as issuer: refused too.
      const forged = await as.forge({ ...decodeJwt(token), iss: stranger.issuer });
      assert.deepEqual(await verify(bearer, forged), rejected);
    } finally {
      await stranger.close();
    }
  });

  describe('over HTTP (Hono)', () => {
    const app = (auth: JwtBearer, logged: string[] = []) => {
      const hono = new Hono();
      hono.onError(vouchErrorHandler({ log: (_message, error) => logged.push(error.message) }));
      hono.get('/mcp', requireAuth(auth, { scopes: ['mcp:tools'] }), (c) =>
        c.json({ sub: c.get('auth').sub }),
      );
      hono.get('/admin', requireAuth(auth, { scopes: ['mcp:tools', 'mcp:admin'] }), (c) =>
        c.text('admin'),
      );
      return hono;
    };
    const get = (hono: Hono, path: string, token: string) =>
      hono.request(path, { headers: { authorization: `Bearer ${token}` } });

    it('200 with the scopes the route requires (scope claim), 403 naming them otherwise', async () => {
      const hono = app(bearer);
      const tools = await tokenFor(JWT_RESOURCE, 'mcp:tools');
      assert.deepEqual(await (await get(hono, '/mcp', tools)).json(), { sub: 'service' });
      const lacking = await get(hono, '/admin', tools);
      assert.equal(lacking.status, 403);
      assert.equal(
        lacking.headers.get('www-authenticate'),
        `Bearer realm="api", error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="${api.metadataUrl}"`,
      );
      const admin = await tokenFor(JWT_RESOURCE, 'mcp:tools mcp:admin');
      assert.equal((await get(hono, '/admin', admin)).status, 200);
    });

    it('401 invalid_token, pointing to the metadata, for a token of another audience', async () => {
      const response = await get(app(bearer), '/mcp', await tokenFor(OTHER));
      assert.equal(response.status, 401);
      assert.equal(
        response.headers.get('www-authenticate'),
        `Bearer realm="api", error="invalid_token", scope="mcp:tools", resource_metadata="${api.metadataUrl}"`,
      );
      assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
    });

    it('503 with Retry-After when the authorization server cannot be discovered', async () => {
      const gone = await startAuthorizationServer();
      const token = (await gone.clientCredentialsToken({ resource: JWT_RESOURCE })).access_token;
      await gone.close();
      const logged: string[] = [];
      const down = bearerFor(JWT_RESOURCE, {
        resource: protectedResource({
          resource: JWT_RESOURCE,
          authorizationServers: [gone.issuer],
        }),
      });
      const response = await get(app(down, logged), '/mcp', token);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '5');
      assert.deepEqual(await response.json(), { detail: 'Service Unavailable' });
      assert.match(logged.join('\n'), new RegExp(`authorization server ${gone.issuer}`));
      assert.ok(!logged.join('\n').includes(token), 'the token is never logged');
    });

    it('503 when the metadata names another issuer (RFC 8414 §3.3)', async () => {
      const token = await tokenFor();
      const slash = `${as.issuer}/`;
      const mismatched = bearerFor(JWT_RESOURCE, {
        resource: protectedResource({ resource: JWT_RESOURCE, authorizationServers: [slash] }),
      });
      const response = await get(app(mismatched), '/mcp', token);
      assert.equal(response.status, 503);
    });
  });

  it('refuses, at construction, an audience other than the resource, or no issuer check', () => {
    const base = {
      resource: protectedResource({
        resource: JWT_RESOURCE,
        authorizationServers: ['https://as.test'],
      }),
      algorithms: ['RS256'],
    };
    const refused: [string, object][] = [
      ['another audience', { audience: OTHER }],
      ['the resource and another', { audience: [JWT_RESOURCE, OTHER] }],
      ['any audience', { audience: false }],
      ['any issuer', { issuer: false, keys: { keys: [] } }],
      ['a JWKS URL without its issuer', { jwksUrl: 'https://as.test/jwks' }],
      ['an empty typ', { typ: '' }],
      ['a typ that is no string', { typ: 1 }],
    ];
    for (const [what, options] of refused) {
      assert.throws(
        () => new JwtBearer({ ...base, ...options }),
        { code: 'VOUCH_ERR_CONFIGURATION' },
        what,
      );
    }
    for (const audience of [JWT_RESOURCE, [JWT_RESOURCE]]) {
      assert.ok(new JwtBearer({ ...base, audience } as JwtBearerOptions));
    }
  });
});
