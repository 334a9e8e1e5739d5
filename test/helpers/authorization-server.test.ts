// The test authorization server does what the OAuth tests take it for: tokens from its token
// endpoint, verifiable with its published keys, for the resource asked, and nothing left open.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  JWT_RESOURCE,
  OPAQUE_RESOURCE,
  startAuthorizationServer,
  type AuthorizationServer,
} from './authorization-server.js';

describe('test authorization server (oidc-provider)', () => {
  let as: AuthorizationServer;
  before(async () => {
    as = await startAuthorizationServer({
      resources: {
        [JWT_RESOURCE]: {},
        [OPAQUE_RESOURCE]: { format: 'opaque' },
        'https://legacy.test/': { typ: 'JWT', extraAudiences: ['https://userinfo.test/'] },
      },
    });
  });
  after(() => as.close());

  const introspect = async (token: string) => {
    const { clientId, clientSecret } = as.clients.introspector;
    const response = await fetch(as.introspectionEndpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token }),
    });
    assert.equal(response.status, 200);
    return (await response.json()) as Record<string, unknown>;
  };

  it('client credentials: an RFC 9068 JWT for the resource, verifiable with its JWKS', async () => {
    const { access_token, token_type, scope } = await as.clientCredentialsToken({
      scope: 'mcp:tools pets:read',
      resource: JWT_RESOURCE,
    });
    assert.equal(token_type, 'Bearer');
    assert.equal(scope, 'mcp:tools pets:read');
    const { payload, protectedHeader } = await jwtVerify(
      access_token,
      createRemoteJWKSet(new URL(as.jwksUri)),
      { issuer: as.issuer, audience: JWT_RESOURCE, typ: 'at+jwt', algorithms: ['RS256'] },
    );
    assert.equal(protectedHeader.typ, 'at+jwt');
    assert.equal(payload.aud, JWT_RESOURCE);
    assert.equal(payload.sub, 'service');
    assert.equal(payload['client_id'], 'service');
    assert.equal(payload['scope'], 'mcp:tools pets:read');
    assert.equal(typeof payload.jti, 'string');
    assert.equal(typeof payload.iat, 'number');
    assert.equal(payload['cnf'], undefined);
  });

  it('authorization code + PKCE: the account consents, the token names it', async () => {
    const { access_token } = await as.authorizationCodeToken({
      scope: 'mcp:tools mcp:admin',
      resource: JWT_RESOURCE,
      account: 'alice',
    });
    const payload = decodeJwt(access_token);
    assert.equal(payload.sub, 'alice');
    assert.equal(payload['client_id'], 'app');
    assert.equal(payload.aud, JWT_RESOURCE);
    assert.equal(payload['scope'], 'mcp:tools mcp:admin');
  });

  it('opaque tokens: introspected active for the introspector, inactive once revoked', async () => {
    const { access_token } = await as.clientCredentialsToken({
      scope: 'pets:read',
      resource: OPAQUE_RESOURCE,
    });
    assert.throws(() => decodeProtectedHeader(access_token), 'not a JWT');
    const active = await introspect(access_token);
    assert.equal(active['active'], true);
    assert.equal(active['aud'], OPAQUE_RESOURCE);
    assert.equal(active['scope'], 'pets:read');
    assert.equal(active['client_id'], 'service');
    assert.equal(active['iss'], as.issuer);
    await as.revoke(access_token);
    assert.deepEqual(await introspect(access_token), { active: false });
  });

  it('a DPoP proof binds the token (cnf.jkt); off-profile resources mint what they are told', async () => {
    const bound = await as.clientCredentialsToken({ resource: JWT_RESOURCE, dpop: true });
    assert.equal(bound.token_type, 'DPoP');
    const { cnf } = decodeJwt(bound.access_token) as { cnf?: { jkt?: unknown } };
    assert.equal(typeof cnf?.jkt, 'string');

    const legacy = await as.clientCredentialsToken({ resource: 'https://legacy.test/' });
    assert.equal(decodeProtectedHeader(legacy.access_token).typ, 'JWT');
    assert.deepEqual(decodeJwt(legacy.access_token).aud, [
      'https://legacy.test/',
      'https://userinfo.test/',
    ]);
  });

  it('refuses a resource it does not serve (RFC 8707 invalid_target)', async () => {
    await assert.rejects(
      as.clientCredentialsToken({ resource: 'https://elsewhere.test/' }),
      /invalid_target/,
    );
  });

  it('an issuer with a path: RFC 8414 metadata at the inserted path, OpenID at the appended one', async () => {
    const tenant = await startAuthorizationServer({ issuerPath: '/tenant-a' });
    const plain = await startAuthorizationServer({ rfc8414: false });
    try {
      assert.equal(tenant.issuer, `${tenant.origin}/tenant-a`);
      for (const path of [
        '/.well-known/oauth-authorization-server/tenant-a',
        '/tenant-a/.well-known/openid-configuration',
      ]) {
        const response = await fetch(`${tenant.origin}${path}`);
        assert.equal(response.status, 200, path);
        const metadata = (await response.json()) as Record<string, unknown>;
        assert.equal(metadata['issuer'], tenant.issuer);
        assert.equal(metadata['jwks_uri'], tenant.jwksUri);
      }
      assert.equal(tenant.requestCount('/.well-known/oauth-authorization-server/tenant-a'), 1);
      const token = await tenant.clientCredentialsToken({ resource: JWT_RESOURCE });
      assert.equal(decodeJwt(token.access_token).iss, tenant.issuer);

      const absent = await fetch(`${plain.origin}/.well-known/oauth-authorization-server`);
      assert.equal(absent.status, 404);
    } finally {
      await Promise.all([tenant.close(), plain.close()]);
    }
  });

  it('a stalled server answers nothing; closing it ends every connection', async () => {
    const server = await startAuthorizationServer();
    server.stalled = true;
    const hanging = fetch(server.jwksUri);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    await assert.rejects(hanging);
    await assert.rejects(fetch(server.jwksUri), 'nothing listens any more');
    await server.close();
  });
});
