// Several trusted issuers, each with its own keys (tenants): two oidc-provider instances, a
// token's iss picking whose keys verify it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import {
  JWT_RESOURCE,
  startAuthorizationServer,
  type AuthorizationServer,
} from '../../test/helpers/authorization-server.js';
import { verifyBearer as verify } from '../../test/helpers/jwt.js';
import { loopbackServer } from '../../test/helpers/loopback-server.js';
import { StoreUnavailableError } from '../core/errors.js';
import { protectedResource } from '../oauth/index.js';
import { JwtBearer, type JwtBearerOptions } from './index.js';

const rejected = { state: 'rejected' };

describe('JwtBearer issuers: several trusted issuers, each with its own keys', () => {
  let a: AuthorizationServer;
  let b: AuthorizationServer;
  let stranger: AuthorizationServer;
  before(async () => {
    [a, b, stranger] = await Promise.all([
      startAuthorizationServer({ resources: { [JWT_RESOURCE]: {} } }),
      startAuthorizationServer({ resources: { [JWT_RESOURCE]: { alg: 'ES256' } } }),
      startAuthorizationServer({ resources: { [JWT_RESOURCE]: {} } }),
    ]);
  });
  after(() => Promise.all([a.close(), b.close(), stranger.close()]));

  const tokenOf = async (server: AuthorizationServer) =>
    (await server.clientCredentialsToken({ resource: JWT_RESOURCE, scope: 'mcp:tools' }))
      .access_token;
  /** Trusts a (discovered) and b (its JWKS URL, ES256), for the resource. */
  const tenants = () =>
    new JwtBearer({
      resource: protectedResource({
        resource: JWT_RESOURCE,
        authorizationServers: [a.issuer, b.issuer],
      }),
      issuers: [
        { issuer: a.issuer },
        { issuer: b.issuer, jwksUrl: b.jwksUri, algorithms: ['ES256'] },
      ],
      algorithms: ['RS256'],
    });

  it("accepts each issuer's tokens with its own keys, fetching only what a token needs", async () => {
    const bearer = tenants();
    const fromB = await verify(bearer, await tokenOf(b));
    assert.equal(fromB.state, 'accepted');
    assert.equal((fromB as { value: { iss: string } }).value.iss, b.issuer);
    assert.equal(a.requestCount(), 0, "a's metadata is not discovered before a token names a");
    const fromA = await verify(bearer, await tokenOf(a));
    assert.equal(fromA.state, 'accepted');
    assert.equal((fromA as { value: { iss: string } }).value.iss, a.issuer);
    assert.equal(a.requestCount('/.well-known/oauth-authorization-server'), 1);
  });

  it("refuses a token naming one issuer signed with the other's key", async () => {
    const bearer = tenants();
    const payload = decodeJwt(await tokenOf(a));
    const kidOfA = decodeProtectedHeader(await tokenOf(a)).kid;
    for (const header of [{}, { kid: kidOfA }]) {
      const forged = await b.forge(payload, header);
      assert.deepEqual(await verify(bearer, forged), rejected, JSON.stringify(header));
    }
    // And b's own tokens, claimed as a's: refused.
    const claimed = await b.forge({ ...decodeJwt(await tokenOf(b)), iss: a.issuer });
    assert.deepEqual(await verify(bearer, claimed), rejected);
  });

  it('refuses a token of an issuer not trusted, or naming none, without a fetch', async () => {
    const bearer = tenants();
    const token = await tokenOf(stranger);
    const counts = () => [a, b, stranger].map((server) => server.requestCount());
    const before = counts();
    assert.deepEqual(await verify(bearer, token), rejected);
    const anonymous = { ...decodeJwt(token), iss: undefined };
    assert.deepEqual(await verify(bearer, await a.forge(anonymous)), rejected);
    assert.deepEqual(await verify(bearer, await a.forge({ ...anonymous, iss: 7 })), rejected);
    assert.deepEqual(await verify(bearer, 'not.a.jwt'), rejected);
    assert.deepEqual(counts(), before);
  });

  it('takes keys given locally for an issuer, and works without a resource', async () => {
    const jwks = (await (await fetch(stranger.jwksUri)).json()) as JSONWebKeySet;
    const bearer = new JwtBearer({
      issuers: [{ issuer: stranger.issuer, keys: jwks }, { issuer: a.issuer }],
      audience: JWT_RESOURCE,
      algorithms: ['RS256'],
    });
    assert.equal(bearer.consultsStore, true, "a's keys are discovered");
    assert.equal((await verify(bearer, await tokenOf(stranger))).state, 'accepted');
    assert.equal((await verify(bearer, await tokenOf(a))).state, 'accepted');
    const local = new JwtBearer({
      issuers: [{ issuer: stranger.issuer, keys: jwks }],
      audience: JWT_RESOURCE,
      algorithms: ['RS256'],
    });
    assert.equal(local.consultsStore, false);
  });

  it("one issuer down answers 503 for its tokens; the other's still pass", async () => {
    const gone = await startAuthorizationServer({ resources: { [JWT_RESOURCE]: {} } });
    const token = await tokenOf(gone);
    await gone.close();
    const bearer = new JwtBearer({
      issuers: [{ issuer: gone.issuer }, { issuer: a.issuer }],
      audience: JWT_RESOURCE,
      algorithms: ['RS256'],
    });
    await assert.rejects(verify(bearer, token), StoreUnavailableError);
    assert.equal((await verify(bearer, await tokenOf(a))).state, 'accepted');
  });

  it('an issuer whose metadata names no jwks_uri answers 503 for its tokens', async (t) => {
    const issuer = await loopbackServer(t, (origin) => (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(`{"issuer":"${origin}"}`);
    });
    const bearer = new JwtBearer({
      issuers: [{ issuer }],
      audience: JWT_RESOURCE,
      algorithms: ['RS256'],
    });
    const token = await a.forge({ ...decodeJwt(await tokenOf(a)), iss: issuer });
    await assert.rejects(verify(bearer, token), {
      name: 'StoreUnavailableError',
      message: `authorization server ${issuer} names no jwks_uri`,
    });
  });

  it('refuses, at construction, issuers that make no sense', () => {
    const refused: [string, object, RegExp][] = [
      ['no issuers', { issuers: [] }, /at least one issuer/],
      [
        'issuers beside issuer and keys',
        { issuers: [{ issuer: 'https://a.test' }], issuer: 'i', keys: { keys: [] } },
        /issuers, or issuer with jwksUrl or keys: not both/,
      ],
      [
        'an issuer twice',
        { issuers: [{ issuer: 'https://a.test' }, { issuer: 'https://a.test' }] },
        /given once/,
      ],
      [
        'an empty issuer',
        { issuers: [{ issuer: '', keys: { keys: [] } }] },
        /issuer must be a string/,
      ],
      [
        'both jwksUrl and keys',
        { issuers: [{ issuer: 'i', jwksUrl: 'https://a.test/jwks', keys: { keys: [] } }] },
        /not both/,
      ],
      [
        'an issuer to discover that is no https URL',
        { issuers: [{ issuer: 'http://a.test' }] },
        /https URL/,
      ],
      [
        'HS256 with keys discovered',
        { issuers: [{ issuer: 'https://a.test', algorithms: ['HS256'] }] },
        /HS256 takes a secret/,
      ],
    ];
    for (const [what, options, message] of refused) {
      assert.throws(
        () =>
          new JwtBearer({
            audience: JWT_RESOURCE,
            algorithms: ['RS256'],
            ...options,
          } as unknown as JwtBearerOptions),
        { code: 'VOUCH_ERR_CONFIGURATION', message },
        what,
      );
    }
  });
});
