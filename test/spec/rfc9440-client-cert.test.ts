// RFC 9440 (Client-Cert HTTP header field) at an application behind a TLS-terminating proxy, on
// Fastify, Express, Hono and Nest (on both): the header, and X-Forwarded-Proto/Host, are believed
// from the trusted proxy's address only. First with requests sent from that address (another
// loopback address, 127.0.0.2) and from anyone else; then behind Debian's nginx, which verifies
// client certificates against the test CA and forwards them, connecting to the app from
// 127.0.0.2; there a DPoP proof's htu is checked against the public https URL (RFC 9449 §4.3).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateProof } from 'dpop';
import { edge } from '../../src/index.js';
import { JwtBearer } from '../../src/jwt/index.js';
import { ClientCertificateAuth } from '../../src/mtls/index.js';
import { DPoPBearer } from '../../src/dpop/index.js';
import { protectedResource } from '../../src/oauth/index.js';
import {
  JWT_RESOURCE,
  startAuthorizationServer,
  type AuthorizationServer,
} from '../helpers/authorization-server.js';
import { proofKey, type ProofKey } from '../helpers/dpop-proof.js';
import { ENGINES, type RouteAnswer, type RunningApp } from '../helpers/engine-apps.js';
import { get, type GetAnswer } from '../helpers/get.js';
import { NGINX_ADDRESS, startNginx } from '../helpers/nginx.js';
import { clientCertHeader, testPki, thumbprint, type Issued } from '../helpers/pki.js';

const pki = testPki();
const front = edge({ trustedProxies: NGINX_ADDRESS });
const fromProxy = (issued: Issued) => ({ from: 'proxy', x5tS256: thumbprint(issued.der) });

const partners = new ClientCertificateAuth({
  edge: front,
  map: (certificate) => (certificate.subject === 'CN=client-1' ? { partner: 'one' } : undefined),
});

let as: AuthorizationServer;
let bound: string;
let key: ProofKey;
let dpopBound: string;
before(async () => {
  as = await startAuthorizationServer();
  const issued = await as.clientCredentialsToken({
    clientId: 'mtls',
    resource: JWT_RESOURCE,
    certificate: pki.client.der,
  });
  bound = issued.access_token;
  key = await proofKey('ES256');
  dpopBound = (await as.clientCredentialsToken({ resource: JWT_RESOURCE, dpop: key })).access_token;
});
after(() => as.close());

/** The app on `engine`: /partner (certificates), /jwt (certificate-bound tokens), /dpop, /open. */
async function startApp(engine: (typeof ENGINES)[number]): Promise<RunningApp> {
  const jwt = new JwtBearer({
    resource: protectedResource({ resource: JWT_RESOURCE, authorizationServers: [as.issuer] }),
    algorithms: ['RS256'],
    clientCertificates: front,
  });
  const dpop = new DPoPBearer({ tokens: jwt, edge: front });
  const routes = [
    { path: '/partner', auth: partners },
    { path: '/jwt', auth: jwt },
    { path: '/dpop', auth: dpop },
    { path: '/open' },
  ];
  return engine.start(routes, { edge: front });
}

const seen = (answer: GetAnswer) => answer.body as RouteAnswer;

for (const engine of ENGINES) {
  describe(`Client-Cert and X-Forwarded-* from a trusted proxy only, on ${engine.name}`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startApp(engine);
    });
    after(() => app.close());

    const forwarded = (issued: Issued | string | string[], from: string) =>
      get(app.port, '/partner', {
        from,
        headers: {
          'client-cert':
            typeof issued === 'object' && !Array.isArray(issued)
              ? clientCertHeader(issued.der)
              : issued,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'API.example:443',
        },
      });

    it("§2: from the proxy, the certificate it forwards is the client's; the public URL its", async () => {
      const answer = await forwarded(pki.client, NGINX_ADDRESS);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, {
        auth: { partner: 'one' },
        publicUrl: 'https://api.example/partner',
        certificate: fromProxy(pki.client),
      });
    });

    it('§4: the same headers from anyone else are refused: 401, nothing believed', async () => {
      const answer = await forwarded(pki.client, '127.0.0.1');
      assert.equal(answer.status, 401);
      const open = await get(app.port, '/open', {
        headers: {
          'client-cert': clientCertHeader(pki.client.der),
          'x-forwarded-host': 'a.example',
        },
      });
      assert.deepEqual(seen(open), {
        auth: null,
        publicUrl: null,
        certificate: { unusable: 'untrusted-peer' },
      });
      const chain = await get(app.port, '/open', {
        headers: { 'client-cert-chain': clientCertHeader(pki.ca.der) },
      });
      assert.deepEqual(seen(chain).certificate, { unusable: 'untrusted-peer' });
    });

    it('a certificate the proxy forwards past its dates is refused all the same: 401', async () => {
      for (const issued of [pki.expired, pki.notYetValid]) {
        assert.equal((await forwarded(issued, NGINX_ADDRESS)).status, 401);
      }
    });

    it('§2.2: a Client-Cert on two lines, or not one Byte Sequence, is refused: 401', async () => {
      const value = clientCertHeader(pki.client.der);
      for (const header of [[value, value], `${value};x=1`, value.slice(1)]) {
        assert.equal((await forwarded(header, NGINX_ADDRESS)).status, 401);
      }
    });
  });

  describe(`behind Debian's nginx (TLS, ssl_verify_client, njs Client-Cert), on ${engine.name}`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startApp(engine);
    });
    after(() => app.close());

    it('a verified certificate reaches the app; refused ones do not; nothing is forged', async (t) => {
      const port = await startNginx(t, app.port, pki);
      if (port === undefined) return;
      const through = (path: string, cert?: Issued, headers: Record<string, string> = {}) =>
        get(port, path, { tls: { ca: pki.ca.cert, ...(cert && { cert }) }, headers });

      const valid = await through('/partner', pki.client);
      assert.equal(valid.status, 200);
      assert.deepEqual(valid.body, {
        auth: { partner: 'one' },
        // What the client asked for, as nginx says it.
        publicUrl: `https://localhost:${port}/partner`,
        certificate: fromProxy(pki.client),
      });

      // nginx refuses a certificate of another CA, or an expired one, before the app sees it.
      for (const cert of [pki.stranger, pki.expired]) {
        const refused = await through('/partner', cert);
        assert.equal(refused.status, 400, cert.certFile);
        assert.match(String(refused.body), /SSL certificate error/);
      }

      // Without one, vouch refuses; a Client-Cert the client sends is replaced by nginx's none.
      const forged = { 'client-cert': clientCertHeader(pki.client.der) };
      const none = await through('/partner', undefined, forged);
      assert.equal(none.status, 401);
      assert.deepEqual(none.body, { detail: 'Unauthorized' });
      assert.equal(seen(await through('/open', undefined, forged)).certificate, null);

      // The same header straight to the app, from an address that is not nginx's: refused.
      const direct = await get(app.port, '/partner', { headers: forged });
      assert.equal(direct.status, 401);

      // RFC 8705 §3 through the proxy: the token bound to the certificate nginx forwarded.
      const bearer = { authorization: `Bearer ${bound}` };
      assert.equal((await through('/jwt', pki.client, bearer)).status, 200);
      assert.equal((await through('/jwt', pki.otherClient, bearer)).status, 401);
      assert.equal((await through('/jwt', undefined, bearer)).status, 401);
      assert.equal(
        (await get(app.port, '/jwt', { headers: { ...bearer, ...forged } })).status,
        401,
      );
    });

    it("RFC 9449 §4.3: a DPoP proof's htu is the public https URL, not the app's", async (t) => {
      const port = await startNginx(t, app.port, pki);
      if (port === undefined) return;
      const proof = (url: string) => generateProof(key, url, 'GET', undefined, dpopBound);
      const dpop = async (at: number, url: string, headers: Record<string, string> = {}) =>
        get(at, '/dpop', {
          ...(at === port && { tls: { ca: pki.ca.cert } }),
          headers: { authorization: `DPoP ${dpopBound}`, dpop: await proof(url), ...headers },
        });
      const publicUrl = `https://localhost:${port}/dpop`;
      assert.equal((await dpop(port, publicUrl)).status, 200);
      // What the app itself listens on is no URL the client asked for.
      const internal = await dpop(port, `http://127.0.0.1:${app.port}/dpop`);
      assert.equal(internal.status, 401);
      assert.match(String(internal.headers['www-authenticate']), /invalid_dpop_proof/);
      // Straight to the app, claiming the public URL: the forwarded headers are not believed.
      const claimed = { 'x-forwarded-proto': 'https', 'x-forwarded-host': `localhost:${port}` };
      assert.equal((await dpop(app.port, publicUrl, claimed)).status, 401);
    });
  });
}
