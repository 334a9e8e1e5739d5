// RFC 8705 (OAuth 2.0 Mutual-TLS Client Authentication and Certificate-Bound Access Tokens) at a
// resource, with TLS ended in Node (`https.createServer({ requestCert: true, ca })`) on Fastify,
// Express, Hono and Nest (on Express and on Fastify): client certificates as credentials, and §3
// certificate-bound access tokens minted by oidc-provider's mTLS feature for a client presenting
// its certificate at the token endpoint. The certificates come from a CA made for the test run
// (test/helpers/pki.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { APIKeyHeader, authFunction, edge, type ConnectionView } from '../../src/index.js';
import { JwtBearer } from '../../src/jwt/index.js';
import { ClientCertificateAuth } from '../../src/mtls/index.js';
import { IntrospectionBearer, protectedResource } from '../../src/oauth/index.js';
import {
  JWT_RESOURCE,
  OPAQUE_RESOURCE,
  startAuthorizationServer,
  type AuthorizationServer,
} from '../helpers/authorization-server.js';
import { ENGINES, type RouteAnswer, type RunningApp } from '../helpers/engine-apps.js';
import { get } from '../helpers/get.js';
import { testPki, thumbprint, type Issued } from '../helpers/pki.js';

const pki = testPki();
const tls = {
  key: pki.server.key,
  cert: pki.server.cert,
  ca: pki.ca.cert,
  requestCert: true,
  rejectUnauthorized: false,
};
// No proxy in front: the certificate is the TLS connection's.
const front = edge();
const over = (cert?: Issued) => ({ tls: { ca: pki.ca.cert, ...(cert && { cert }) } });

const partners = new ClientCertificateAuth({
  edge: front,
  map: (certificate) => (certificate.subject === 'CN=client-1' ? { partner: 'one' } : undefined),
});
// What hooks see of the connection, on each engine (typed as Fastify's request, a net.Socket).
const connection = authFunction((request) => {
  const socket = request.socket as ConnectionView | undefined;
  return {
    remoteAddress: socket?.remoteAddress,
    encrypted: socket?.encrypted === true,
    authorized: socket?.authorized === true,
  };
});

for (const engine of ENGINES) {
  describe(`client certificates over Node's TLS, on ${engine.name}`, () => {
    let app: RunningApp;
    let port: number;
    before(async () => {
      const routes = [
        { path: '/partner', auth: partners },
        { path: '/connection', auth: connection },
      ];
      app = await engine.start(routes, { edge: front, tls });
      port = app.port;
    });
    after(() => app.close());

    it("hooks see the request's connection: its peer, TLS, the verification", async () => {
      const { status, body } = await get(port, '/connection', over(pki.client));
      assert.equal(status, 200);
      assert.deepEqual((body as RouteAnswer).auth, {
        remoteAddress: '127.0.0.1',
        encrypted: true,
        authorized: true,
      });
    });

    it('a certificate the TLS layer verified: 200, request.auth is what map made of it', async () => {
      const { status, body } = await get(port, '/partner', over(pki.client));
      assert.equal(status, 200);
      assert.deepEqual(body, {
        auth: { partner: 'one' },
        certificate: { from: 'tls', x5tS256: thumbprint(pki.client.der) },
        // A direct connection has no public URL without a configured publicOrigin.
        publicUrl: null,
      });
    });

    it('another CA, expired, not yet valid, unknown to map, or none: 401, no challenge', async () => {
      for (const [cert, certificate] of [
        [pki.stranger, { unusable: 'unverified' }],
        [pki.expired, { unusable: 'unverified' }],
        [pki.notYetValid, { unusable: 'unverified' }],
        [pki.otherClient, { from: 'tls', x5tS256: thumbprint(pki.otherClient.der) }],
        [undefined, null],
      ] as const) {
        const answer = await get(port, '/partner', over(cert));
        assert.equal(answer.status, 401, cert?.certFile ?? 'none');
        assert.equal(answer.headers['www-authenticate'], undefined);
        // What the edge made of the same connection, on a route that requires nothing.
        const seen = await get(port, '/connection', over(cert));
        assert.deepEqual((seen.body as RouteAnswer).certificate, certificate);
      }
    });
  });
}

describe('§3: certificate-bound access tokens, from oidc-provider', () => {
  let as: AuthorizationServer;
  let bound: { jwt: string; opaque: string };
  let plain: string;
  before(async () => {
    as = await startAuthorizationServer();
    const token = async (resource: string, clientId: string, certificate?: Issued) =>
      (
        await as.clientCredentialsToken({
          clientId,
          resource,
          scope: 'mcp:tools',
          ...(certificate && { certificate: certificate.der }),
        })
      ).access_token;
    bound = {
      jwt: await token(JWT_RESOURCE, 'mtls', pki.client),
      opaque: await token(OPAQUE_RESOURCE, 'mtls', pki.client),
    };
    plain = await token(JWT_RESOURCE, 'service');
  });
  after(() => as.close());

  it('the server binds the token to the certificate presented at its token endpoint', () => {
    assert.deepEqual(decodeJwt(bound.jwt)['cnf'], { 'x5t#S256': thumbprint(pki.client.der) });
    assert.equal(decodeJwt(plain)['cnf'], undefined);
  });

  for (const engine of ENGINES) {
    describe(`on ${engine.name}`, () => {
      let app: RunningApp;
      let port: number;
      before(async () => {
        const resource = (identifier: string) =>
          protectedResource({ resource: identifier, authorizationServers: [as.issuer] });
        const jwt = new JwtBearer({
          resource: resource(JWT_RESOURCE),
          algorithms: ['RS256'],
          clientCertificates: front,
        });
        const opaque = new IntrospectionBearer({
          resource: resource(OPAQUE_RESOURCE),
          introspectionEndpoint: as.introspectionEndpoint,
          clientId: as.clients.introspector.clientId,
          clientSecret: as.clients.introspector.clientSecret,
          clientCertificates: front,
        });
        const blind = new JwtBearer({ resource: resource(JWT_RESOURCE), algorithms: ['RS256'] });
        const key = new APIKeyHeader({
          paramName: 'X-API-Key',
          keys: new Map([['partner-key', 'partner-app']]),
        });
        const routes = [
          { path: '/jwt', auth: jwt },
          { path: '/opaque', auth: opaque },
          { path: '/blind', auth: blind },
          { path: '/jwt-or-key', auth: [jwt, key] },
          { path: '/opaque-or-key', auth: [key, opaque] },
        ];
        app = await engine.start(routes, { edge: front, tls });
        port = app.port;
      });
      after(() => app.close());

      const call = (path: string, token: string, cert?: Issued) =>
        get(port, path, { ...over(cert), headers: { authorization: `Bearer ${token}` } });
      const refused = (answer: { status: number; headers: Record<string, unknown> }) => {
        assert.equal(answer.status, 401);
        assert.match(String(answer.headers['www-authenticate']), /error="invalid_token"/);
      };

      it('a bound token over a connection presenting its certificate: 200', async () => {
        for (const path of ['/jwt', '/opaque'] as const) {
          const answer = await call(path, bound[path === '/jwt' ? 'jwt' : 'opaque'], pki.client);
          assert.equal(answer.status, 200, path);
          assert.equal((answer.body as { auth: { client_id: string } }).auth.client_id, 'mtls');
        }
      });

      it('a bound token with another certificate, an unverified one, or none: 401', async () => {
        for (const path of ['/jwt', '/opaque'] as const) {
          const token = bound[path === '/jwt' ? 'jwt' : 'opaque'];
          for (const cert of [pki.otherClient, pki.stranger, undefined]) {
            refused(await call(path, token, cert));
          }
        }
      });

      it('a bound token where no edge says the certificate: 401, even with it', async () => {
        refused(await call('/blind', bound.jwt, pki.client));
        assert.equal((await call('/blind', plain, pki.client)).status, 200);
      });

      it('beside an API key: an unverified certificate refuses the request, key and token', async () => {
        const key = { 'x-api-key': 'partner-key' };
        for (const [path, token] of [
          ['/jwt-or-key', bound.jwt],
          ['/opaque-or-key', bound.opaque],
        ] as const) {
          const send = (cert: Issued | undefined, headers: Record<string, string>) =>
            get(port, path, { ...over(cert), headers });
          const bearer = { authorization: `Bearer ${token}` };
          const keyOnly = await send(pki.stranger, key);
          assert.equal(keyOnly.status, 401, path);
          // RFC 6750 §3.1: no token was sent, so no challenge names an error.
          const challenges = String(keyOnly.headers['www-authenticate']);
          assert.match(challenges, /Bearer realm="api"/);
          assert.match(challenges, /APIKey realm="api", in="header", name="X-API-Key"/);
          assert.doesNotMatch(challenges, /error=/);
          refused(await send(pki.stranger, { ...key, ...bearer }));
          // Without a certificate the key; with its own, the bound token.
          assert.equal(((await send(undefined, key)).body as RouteAnswer).auth, 'partner-app');
          const proved = await send(pki.client, bearer);
          assert.equal((proved.body as { auth: { client_id: string } }).auth.client_id, 'mtls');
        }
      });

      it('a plain Bearer token, with a verified certificate or none: 200; unverified: 401', async () => {
        assert.equal((await call('/jwt', plain, pki.client)).status, 200);
        assert.equal((await call('/jwt', plain)).status, 200);
        refused(await call('/jwt', plain, pki.stranger));
      });
    });
  }
});
