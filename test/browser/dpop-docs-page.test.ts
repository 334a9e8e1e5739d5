// The docs page signs DPoP proofs (RFC 9449) for Try it out, in Debian's Chromium on Fastify,
// Hono and Express: Authorize shows the thumbprint of the key the page made and signs a proof
// for a token request, with which oidc-provider issues a token bound to that key (cnf.jkt). That
// token is entered in Authorize, and each Execute sends it as `Authorization: DPoP` with a fresh
// proof the server's DPoPBearer verifies (typ, htm, htu, ath, the key against cnf.jkt, the jti
// unseen) and that the test checks again with jose; once the server asks for nonces (RFC 9449
// §9), a refusal is answered by a second request carrying the nonce it gave. Screenshots go to
// test-results/screenshots/.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { swaggerUI } from '@hono/swagger-ui';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import express from 'express';
import Fastify from 'fastify';
import { calculateJwkThumbprint, decodeJwt, EmbeddedJWK, jwtVerify, type JWTPayload } from 'jose';
import type { Request as PlaywrightRequest } from 'playwright-core';
import swaggerUi from 'swagger-ui-express';
import type { Authenticator } from '../../src/core/authenticator.js';
import type { RequestView } from '../../src/core/request.js';
import { edge } from '../../src/index.js';
import { DPoPBearer, memoryReplayStore } from '../../src/dpop/index.js';
import { dpopNonces } from '../../src/dpop/dpop-nonces.js';
import {
  authOf,
  chainRequestInterceptors,
  csrfRequestInterceptor,
  documentSecurity as documentExpress,
  senderConstrainedAuthorization,
  dpopRequestInterceptor,
  persistTokensOnly,
  requireAuth as expressAuth,
} from '../../src/express/index.js';
import { vouch } from '../../src/fastify/index.js';
import { vouchOpenapi } from '../../src/fastify/openapi/index.js';
import { JwtBearer } from '../../src/jwt/index.js';
import { ClientCertificateAuth } from '../../src/mtls/index.js';
import {
  chainRequestInterceptorsSource,
  csrfRequestInterceptorSource,
  documentSecurity as documentHono,
  senderConstrainedAuthorizationSource,
  dpopRequestInterceptorSource,
  persistTokensOnlySource,
  requireAuth as honoAuth,
} from '../../src/hono/index.js';
import {
  DPOP_KEY_NOTE,
  MUTUAL_TLS_NOTE,
} from '../../src/openapi/sender-constrained-authorization-source.js';
import {
  startAuthorizationServer,
  type AuthorizationServer,
} from '../helpers/authorization-server.js';
import { freePort } from '../helpers/wait.js';
import { openChromium, PAGE_TEST_MS } from './swagger-ui.js';

const RESOURCE = 'https://api.test/pets';
const PATH = '/api/dpop';
const CERTIFICATE_PATH = '/api/certificate';
const NONCE_SECRET = 'a-nonce-secret-of-32-characters!!';
/** Client certificates, for the Authorize dialog: no request of the test presents one. */
const certificate = new ClientCertificateAuth({
  edge: edge(),
  map: (presented) => presented.subject,
});

/** What the route answers: who the token names, and the key it is bound to. */
function answer(auth: JWTPayload): { sub: unknown; jkt: unknown } {
  return { sub: auth.sub, jkt: (auth['cnf'] as { jkt?: unknown } | undefined)?.jkt };
}

/** Whether the server asks for nonces (RFC 9449 §9): not until the test says so. */
interface NoncePolicy {
  asking: boolean;
}

/** The authenticators of the app: DPoP, and a client certificate (for the Authorize dialog). */
interface Authenticators {
  readonly dpop: Authenticator<JWTPayload>;
  readonly certificate: Authenticator<string>;
}

/** An engine's app: one DPoP route, a certificate one and the docs page, as a Node listener. */
type App = (t: TestContext, auth: Authenticators) => Promise<RequestListener>;

const engines: Record<string, App> = {
  async fastify(t, { dpop, certificate }) {
    let listener: RequestListener | undefined;
    const app = Fastify({
      logger: false,
      // Served by the test's server, behind the nonce policy: this one never listens.
      serverFactory: (handler) => {
        listener = handler;
        return createServer(handler);
      },
    });
    t.after(() => app.close());
    await app.register(vouch, { csrf: false });
    await app.register(vouchOpenapi, { openapi: { info: { title: 'DPoP', version: '1.0.0' } } });
    app.get(PATH, { auth: dpop }, (request) => answer(request.auth as JWTPayload));
    app.get(CERTIFICATE_PATH, { auth: certificate }, () => 'ok');
    await app.ready();
    return listener!;
  },
  hono(_t, { dpop, certificate }) {
    const app = new OpenAPIHono();
    const body = z.object({ sub: z.string(), jkt: z.string() });
    const route = createRoute({
      method: 'get',
      path: PATH,
      middleware: [honoAuth(dpop)] as const,
      responses: { 200: { description: 'OK', content: { 'application/json': { schema: body } } } },
    });
    app.openapi(route, (c) => c.json(answer(c.get('auth')) as z.infer<typeof body>));
    const certificateRoute = createRoute({
      method: 'get',
      path: CERTIFICATE_PATH,
      middleware: [honoAuth(certificate)] as const,
      responses: { 200: { description: 'OK' } },
    });
    app.openapi(certificateRoute, (c) => c.text('ok'));
    const info = { title: 'DPoP', version: '1.0.0' };
    app.get('/api/openapi.json', honoAuth(null), (c) =>
      c.json(documentHono(app, app.getOpenAPI31Document({ openapi: '3.1.0', info }))),
    );
    app.get(
      '/api/docs',
      honoAuth(null),
      swaggerUI({
        url: '/api/openapi.json',
        baseUrl: '/api/docs',
        persistAuthorization: true,
        plugins: [persistTokensOnlySource(), senderConstrainedAuthorizationSource()],
        requestInterceptor: chainRequestInterceptorsSource(
          csrfRequestInterceptorSource(),
          dpopRequestInterceptorSource(),
        ),
      }),
    );
    app.use(
      '/api/docs/swagger-ui-dist/*',
      honoAuth(null),
      serveStatic({
        root: fileURLToPath(new URL('.', import.meta.resolve('swagger-ui-dist/package.json'))),
        rewriteRequestPath: (path) => path.replace('/api/docs/swagger-ui-dist', ''),
      }),
    );
    return Promise.resolve(getRequestListener(app.fetch));
  },
  express(_t, { dpop, certificate }) {
    const app = express();
    app.get(PATH, expressAuth(dpop), (req, res) => {
      res.json(answer(authOf(req, dpop)));
    });
    app.get(CERTIFICATE_PATH, expressAuth(certificate), (_req, res) => {
      res.send('ok');
    });
    const document = {
      openapi: '3.1.0',
      info: { title: 'DPoP', version: '1.0.0' },
      paths: {
        [PATH]: { get: { responses: { 200: { description: 'OK' } } } },
        [CERTIFICATE_PATH]: { get: { responses: { 200: { description: 'OK' } } } },
      },
    };
    app.get('/api/openapi.json', expressAuth(null), (_req, res) => {
      res.json(documentExpress(app, document));
    });
    const page = swaggerUi.setup(undefined, {
      swaggerOptions: {
        url: '/api/openapi.json',
        persistAuthorization: true,
        plugins: [persistTokensOnly(), senderConstrainedAuthorization()],
        requestInterceptor: chainRequestInterceptors(
          csrfRequestInterceptor(),
          dpopRequestInterceptor(),
        ),
      },
    });
    app.use('/api/docs', expressAuth(null), swaggerUi.serve, page);
    return Promise.resolve(app as RequestListener);
  },
};

/**
 * The app of `engine` on a free loopback port; its origin. It is built twice, its DPoPBearer
 * asking for nonces in one (RFC 9449 §9) and not in the other, sharing one replay store: the
 * policy says which one answers.
 */
async function serve(
  t: TestContext,
  engine: App,
  as: AuthorizationServer,
  policy: NoncePolicy,
): Promise<string> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const tokens = new JwtBearer({
    issuer: as.issuer,
    jwksUrl: as.jwksUri,
    audience: RESOURCE,
    algorithms: ['RS256'],
    typ: 'at+jwt',
  });
  // The page addresses the app at its own origin: htu is that origin and the request's path.
  const atOrigin = { publicUrl: ({ url }: RequestView) => `${origin}${url.split('?')[0]}` };
  const replay = memoryReplayStore();
  const plain = await engine(t, {
    dpop: new DPoPBearer({ tokens, edge: atOrigin, replay }),
    certificate,
  });
  const nonces = { secret: NONCE_SECRET };
  const nonced = await engine(t, {
    dpop: new DPoPBearer({ tokens, edge: atOrigin, replay, nonces }),
    certificate,
  });
  const server = createServer((request, response) => {
    (policy.asking ? nonced : plain)(request, response);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return origin;
}

/** A DPoP proof as the browser sent it, verified with the key it embeds. */
async function proofSent(request: PlaywrightRequest) {
  const headers = await request.allHeaders();
  const proof = headers['dpop'];
  assert.ok(proof, 'the request carries a DPoP proof');
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
    typ: 'dpop+jwt',
    algorithms: ['ES256'],
  });
  return {
    authorization: headers['authorization'],
    claims: payload as JWTPayload & Record<string, unknown>,
    jkt: await calculateJwkThumbprint(protectedHeader.jwk!),
  };
}

const pageTest = { timeout: PAGE_TEST_MS };
for (const [name, engine] of Object.entries(engines)) {
  test(`the ${name} docs page signs DPoP proofs for Try it out`, pageTest, async (t) => {
    const as = await startAuthorizationServer({ resources: { [RESOURCE]: {} } });
    t.after(() => as.close());
    const policy: NoncePolicy = { asking: false };
    const origin = await serve(t, engine, as, policy);
    const session = await openChromium(t, origin, `${name}-dpop-docs-page`);
    if (session === undefined) return;
    const { page, docs, pageErrors, refusals, offOrigin, step } = session;
    const sent: PlaywrightRequest[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === PATH) sent.push(request);
    });

    let jkt = '';
    let token = '';
    let claims: JWTPayload = {};
    const jtis: unknown[] = [];

    await step(
      'Authorize shows the thumbprint of the page key, and what mutualTLS takes',
      async () => {
        await docs.open(`${origin}/api/docs`);
        await docs.operation('get', PATH).waitFor();
        await page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
        const modal = page.locator('.modal-ux');
        const form = modal.locator('.auth-container').filter({ hasText: 'dpopAuth' });
        assert.match((await form.locator('h4').textContent()) ?? '', /dpopAuth\s+\(http, DPoP\)/);
        const shown = form.locator('.vouch-dpop-jkt', { hasText: /^[A-Za-z0-9_-]{43}$/ });
        await shown.waitFor();
        jkt = (await shown.textContent()) ?? '';
        const note = (await form.locator('.vouch-dpop-key').textContent()) ?? '';
        assert.equal(note, `${DPOP_KEY_NOTE} ${jkt}`);
        assert.equal(await form.locator('#auth-dpop-value').count(), 1, 'a field for the token');
        const certificate = modal.locator('.auth-container').filter({ hasText: 'mutualTLS' });
        assert.match((await certificate.textContent()) ?? '', /mutualTLS\s+\(mutualTLS\)/);
        assert.equal(await certificate.locator('.vouch-mutual-tls').textContent(), MUTUAL_TLS_NOTE);
        assert.equal((await modal.textContent())?.includes('Unknown security definition'), false);
        await docs.shot('authorize-dpop-key');
        await modal.locator('.modal-ux-header .close-modal').click();
        await modal.waitFor({ state: 'detached' });
      },
    );

    await step('oidc-provider binds a token to that key with a proof the page signs', async () => {
      await page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
      const modal = page.locator('.modal-ux');
      const form = modal.locator('.auth-container').filter({ hasText: 'dpopAuth' });
      await form.locator('#auth-dpop-token-endpoint').fill(as.tokenEndpoint);
      await form.locator('.vouch-dpop-sign').click();
      const signed = form.locator('.vouch-dpop-token-proof');
      await signed.waitFor();
      assert.match(
        (await form.locator('.vouch-dpop-token-request').textContent()) ?? '',
        /RFC 9449 §5/,
      );
      const proof = (await signed.textContent()) ?? '';
      await docs.shot('token-request-proof');
      await modal.locator('.modal-ux-header .close-modal').click();
      await modal.waitFor({ state: 'detached' });
      // The token request, as a client such as curl sends it (client credentials, RFC 9449 §5).
      const { clientId, clientSecret } = as.clients.service;
      const response = await fetch(as.tokenEndpoint, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
          dpop: proof,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          resource: RESOURCE,
          scope: 'pets:read',
        }),
      });
      const answer = (await response.json()) as { access_token: string; token_type: string };
      assert.equal(response.status, 200, JSON.stringify(answer));
      assert.equal(answer.token_type, 'DPoP');
      token = answer.access_token;
      claims = decodeJwt(token);
      assert.deepEqual(claims['cnf'], { jkt }, 'bound to the key of the page');
      await docs.authorize('dpopAuth', { '#auth-dpop-value': token });
    });

    await step('Try it out sends the token with a proof for this request: 200', async () => {
      const op = await docs.tryOut('get', PATH);
      const outcome = await docs.execute(op, PATH);
      await docs.shot('dpop', op);
      assert.equal(outcome.status, '200', outcome.body);
      assert.deepEqual(JSON.parse(outcome.body), { sub: claims.sub, jkt });
      const [request] = sent.splice(0);
      const proof = await proofSent(request!);
      assert.equal(proof.authorization, `DPoP ${token}`);
      assert.equal(proof.claims['htm'], 'GET');
      assert.equal(proof.claims['htu'], `${origin}${PATH}`);
      assert.equal(proof.claims['ath'], createHash('sha256').update(token).digest('base64url'));
      assert.equal(proof.claims['nonce'], undefined);
      assert.equal(proof.jkt, jkt, "the proof's key is the one the token is bound to");
      jtis.push(proof.claims.jti);
    });

    await step('a second Try it out signs a new proof, with a new jti', async () => {
      const op = await docs.tryOut('get', PATH);
      const outcome = await docs.execute(op, PATH);
      assert.equal(outcome.status, '200', outcome.body);
      const proof = await proofSent(sent.splice(0)[0]!);
      assert.equal(proof.jkt, jkt);
      jtis.push(proof.claims.jti);
      assert.equal(new Set(jtis).size, 2, `two jti: ${JSON.stringify(jtis)}`);
    });

    let nonce: string | undefined;
    await step('a server asking for a nonce is answered, in one Execute', async () => {
      policy.asking = true;
      const op = await docs.tryOut('get', PATH);
      await op.locator('.btn-clear').click();
      await op.locator('.execute').click();
      const done = op.locator('.live-responses-table .response .response-col_status', {
        hasText: /^\s*200\s*$/,
      });
      await done.waitFor();
      await docs.shot('dpop-nonce', op);
      assert.equal(sent.length, 2, 'the challenged request, then the one with the nonce');
      const [refused, retried] = sent.splice(0);
      const asked = await refused!.response();
      assert.equal(asked?.status(), 401);
      assert.match((await asked.allHeaders())['www-authenticate'] ?? '', /use_dpop_nonce/);
      nonce = (await asked.allHeaders())['dpop-nonce'];
      assert.ok(
        nonce !== undefined && dpopNonces({ secret: NONCE_SECRET }).accepts(nonce, Date.now()),
      );
      const [challenged, answered] = await Promise.all([refused!, retried!].map(proofSent));
      assert.equal(challenged!.claims['nonce'], undefined);
      assert.equal(answered!.claims['nonce'], nonce);
      assert.notEqual(answered!.claims.jti, challenged!.claims.jti);
    });

    await step('the next proofs carry the nonce at once', async () => {
      const op = await docs.tryOut('get', PATH);
      const outcome = await docs.execute(op, PATH);
      assert.equal(outcome.status, '200', outcome.body);
      const proof = await proofSent(sent.splice(0)[0]!);
      assert.equal(proof.claims['nonce'], nonce);
    });

    await step('the page keeps no DPoP token: its key ends with the page', async () => {
      const kept = await page.evaluate(() => localStorage.getItem('authorized'));
      assert.equal((kept ?? '').includes(token), false);
    });

    await step('no script errors, one refusal (the nonce challenge), nothing elsewhere', () => {
      assert.deepEqual(pageErrors, []);
      const api = refusals.filter((refusal) => !refusal.includes('/favicon.ico'));
      assert.equal(api.length, 1, api.join('\n'));
      assert.match(api[0] ?? '', /status of 401 .*\/api\/dpop\)$/);
      assert.deepEqual(offOrigin, []);
      return Promise.resolve();
    });
  });
}
