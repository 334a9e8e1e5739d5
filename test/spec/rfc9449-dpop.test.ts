// RFC 9449 (DPoP) from the protected resource's side: oidc-provider binds access tokens to a
// client's key (cnf.jkt), JWT and opaque (introspected); oauth4webapi, a real client, builds the
// proofs and retries on a nonce challenge; the `dpop` package (and jose, for what it will not
// sign) forges the bad ones. The app is Fastify on a real socket, reached through its public
// origins (https://api.test, https://opaque.test) as through a proxy in front of it.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it, type TestContext } from 'node:test';
import { generateProof } from 'dpop';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { exportJWK, generateSecret, SignJWT, type JWTPayload } from 'jose';
import * as oauth from 'oauth4webapi';
import { vouch } from '../../src/fastify/index.js';
import { JwtBearer } from '../../src/jwt/index.js';
import { DPoPBearer, memoryReplayStore, redisReplayStore } from '../../src/dpop/index.js';
import { IntrospectionBearer, protectedResource } from '../../src/oauth/index.js';
import { dpopNonces } from '../../src/dpop/dpop-nonces.js';
import {
  JWT_RESOURCE,
  OPAQUE_RESOURCE,
  startAuthorizationServer,
  type AuthorizationServer,
} from '../helpers/authorization-server.js';
import { athOf, proofKey, signProof, type ProofKey } from '../helpers/dpop-proof.js';
import { handMade } from '../helpers/jwt.js';
import { sendRaw } from '../helpers/raw-http.js';
import { redisNamespace } from '../helpers/services.js';

const MCP = JWT_RESOURCE; // https://api.test/mcp
const NONCE_SECRET = 'a-nonce-secret-shared-by-every-instance';
const ALGS = 'algs="ES256 Ed25519"';
const MCP_METADATA =
  'resource_metadata="https://api.test/.well-known/oauth-protected-resource/mcp"';
const OPAQUE_METADATA =
  'resource_metadata="https://opaque.test/.well-known/oauth-protected-resource/api"';
/** The DPoP challenge of a route of the JWT resource requiring mcp:tools, with `error`. */
const dpopChallenge = (error?: string) =>
  `DPoP realm="api"${error === undefined ? '' : `, error="${error}"`}, ${ALGS}, scope="mcp:tools", ${MCP_METADATA}`;
const BEARER = `Bearer realm="api", scope="mcp:tools", ${MCP_METADATA}`;
const BEARER_INVALID = `Bearer realm="api", error="invalid_token", scope="mcp:tools", ${MCP_METADATA}`;

/** An answer as the wire carried it: every WWW-Authenticate line, the DPoP-Nonce, the body. */
interface Answer {
  readonly status: number;
  readonly challenges: readonly string[];
  readonly nonce: string | undefined;
  readonly retryAfter: string | undefined;
  readonly body: unknown;
}

describe('RFC 9449 DPoP: DPoPBearer with oidc-provider, oauth4webapi and forged proofs', () => {
  let as: AuthorizationServer;
  let app: FastifyInstance;
  let port: number;
  let metadata: oauth.AuthorizationServer;
  let keyPair: ProofKey;
  let bound: string;
  let boundOpaque: string;
  let unbound: string;
  let jwt: JwtBearer;
  const full = memoryReplayStore({ maxEntries: 1 });
  const algorithms = ['ES256', 'Ed25519'];

  /** The app where it listens, for a URL of one of its public origins (the proxy's part). */
  const local = (url: string, at = port) => {
    const { pathname, search } = new URL(url);
    return `http://127.0.0.1:${at}${pathname}${search}`;
  };
  // The authorization server listens on plain HTTP, on loopback: what the option is for.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const client: oauth.Client = { client_id: 'service' };

  /** A DPoP-bound access token for `resource`, from the token endpoint, bound to `handle`'s key. */
  async function tokenFor(resource: string, handle?: oauth.DPoPHandle): Promise<string> {
    const auth = oauth.ClientSecretBasic(as.clients.service.clientSecret);
    const parameters = { resource, scope: 'mcp:tools' };
    const options = handle === undefined ? insecure : { ...insecure, DPoP: handle };
    const response = await oauth.clientCredentialsGrantRequest(
      metadata,
      client,
      auth,
      parameters,
      options,
    );
    const answer = await oauth.processClientCredentialsResponse(metadata, client, response);
    assert.equal(answer.token_type, handle === undefined ? 'bearer' : 'dpop');
    return answer.access_token;
  }

  /** GET `url` (a public one) with these header lines, reading the answer as sent. */
  function get(url: string, headers: Record<string, string> = {}, at = port): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(local(url, at), { headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const challenges: string[] = [];
          const raw = response.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) {
            if (raw[i]?.toLowerCase() === 'www-authenticate') challenges.push(raw[i + 1] ?? '');
          }
          resolve({
            status: response.statusCode ?? 0,
            challenges,
            nonce: response.headers['dpop-nonce'] as string | undefined,
            retryAfter: response.headers['retry-after'],
            body: JSON.parse(text) as unknown,
          });
        });
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }
  /** GET `url` as DPoP: the token in Authorization, the proof in DPoP. */
  const withDPoP = (url: string, token: string, proof: string, at = port) =>
    get(url, { authorization: `DPoP ${token}`, dpop: proof }, at);
  /** A proof from the dpop package with the client's key: GET `url`, bound to `token`. */
  const proofFor = (url: string, token: string, nonce?: string) =>
    generateProof(keyPair, url, 'GET', nonce, token);

  before(async () => {
    as = await startAuthorizationServer();
    const discovered = await oauth.discoveryRequest(new URL(as.issuer), insecure);
    metadata = await oauth.processDiscoveryResponse(new URL(as.issuer), discovered);
    keyPair = await proofKey('ES256');
    const handle = oauth.DPoP(client, keyPair);
    bound = await tokenFor(JWT_RESOURCE, handle);
    boundOpaque = await tokenFor(OPAQUE_RESOURCE, handle);
    unbound = await tokenFor(JWT_RESOURCE);

    const api = protectedResource({ resource: JWT_RESOURCE, authorizationServers: [as.issuer] });
    const opaqueApi = protectedResource({
      resource: OPAQUE_RESOURCE,
      authorizationServers: [as.issuer],
    });
    jwt = new JwtBearer({ resource: api, algorithms: ['RS256'] });
    const introspection = new IntrospectionBearer({
      resource: opaqueApi,
      introspectionEndpoint: as.introspectionEndpoint,
      clientId: as.clients.introspector.clientId,
      clientSecret: as.clients.introspector.clientSecret,
      timeout: 500,
    });
    const dpop = new DPoPBearer({ tokens: jwt, algorithms });
    const nonced = new DPoPBearer({
      tokens: jwt,
      algorithms,
      nonces: { secret: NONCE_SECRET },
      name: 'dpopNonced',
    });
    const opaque = new DPoPBearer({ tokens: introspection, algorithms, name: 'dpopOpaque' });
    const crowded = new DPoPBearer({ tokens: jwt, algorithms, replay: full, name: 'dpopFull' });

    app = Fastify({ logger: false });
    await app.register(vouch, { csrf: false });
    const answer = async (request: { auth: unknown }) => {
      const payload = request.auth as JWTPayload & { cnf?: { jkt?: string } };
      return { client_id: payload['client_id'], jkt: payload.cnf?.jkt ?? null };
    };
    const scopes = ['mcp:tools'];
    app.get('/mcp', { auth: [dpop, jwt], scopes }, answer);
    app.get('/mcp/only', { auth: dpop, scopes }, answer);
    app.get('/mcp/nonced', { auth: nonced, scopes }, answer);
    app.get('/mcp/full', { auth: crowded, scopes }, answer);
    app.get('/api', { auth: opaque }, answer);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });
  after(async () => {
    await app.close();
    await as.close();
  });

  describe('a real client (oauth4webapi) with tokens oidc-provider bound to its key', () => {
    /** oauth4webapi's protected resource request, sent where the app listens. */
    const call = (url: string, token: string, handle: oauth.DPoPHandle) =>
      oauth.protectedResourceRequest(token, 'GET', new URL(url), undefined, undefined, {
        DPoP: handle,
        [oauth.customFetch]: (target, init) => fetch(local(target), init as RequestInit),
      });

    it('§7.1: a JWT access token bound by cnf.jkt, on a route taking DPoP or Bearer, and DPoP alone', async () => {
      const handle = oauth.DPoP(client, keyPair);
      for (const url of [MCP, `${MCP}/only`]) {
        const response = await call(url, bound, handle);
        assert.equal(response.status, 200, url);
        assert.deepEqual(await response.json(), { client_id: 'service', jkt: keyPair.jkt });
      }
    });

    it('§7.1 with RFC 7662: an opaque token, its cnf.jkt from introspection', async () => {
      const response = await call(OPAQUE_RESOURCE, boundOpaque, oauth.DPoP(client, keyPair));
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { client_id: 'service', jkt: keyPair.jkt });
    });

    it('§9: asked for a nonce, it retries with the DPoP-Nonce it was given, and passes', async () => {
      const handle = oauth.DPoP(client, keyPair);
      const url = `${MCP}/nonced`;
      const error = await call(url, bound, handle).then(
        () => assert.fail('a proof without a nonce passed'),
        (thrown: unknown) => thrown,
      );
      assert.equal(oauth.isDPoPNonceError(error), true);
      const { response } = error as oauth.WWWAuthenticateChallengeError;
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), dpopChallenge('use_dpop_nonce'));
      assert.equal(
        response.headers.get('dpop-nonce'),
        dpopNonces({ secret: NONCE_SECRET }).issue(Date.now()),
      );
      const retried = await call(url, bound, handle);
      assert.equal(retried.status, 200);
    });

    it('an unbound token still passes as Bearer where Bearer is accepted', async () => {
      const answer = await get(MCP, { authorization: `Bearer ${unbound}` });
      assert.deepEqual([answer.status, answer.body], [200, { client_id: 'service', jkt: null }]);
    });
  });

  describe('§4.3: forged proofs, refused with invalid_dpop_proof', () => {
    /** Each a proof with one defect, made for a GET of `MCP` with the bound token. */
    const forged: readonly [string, () => Promise<string>][] = [
      ['(8) htm POST on a GET', () => generateProof(keyPair, MCP, 'POST', undefined, bound)],
      ['(9) htu of another path', () => proofFor('https://api.test/other', bound)],
      ['(9) htu of the origin it listens on', () => proofFor(local(MCP), bound)],
      ['(9) a query in htu', () => proofFor(`${MCP}?debug=1`, bound)],
      ['(11) iat 2 minutes old', () => stale(-120)],
      ['(11) iat a minute ahead', () => stale(60)],
      ['(12) ath of another token', () => proofFor(MCP, unbound)],
      [
        '(5) alg none',
        async () => {
          const claims = { htm: 'GET', htu: MCP, iat: epoch(), jti: 'j1', ath: athOf(bound) };
          return handMade({ alg: 'none', typ: 'dpop+jwt', jwk: keyPair.jwk }, claims);
        },
      ],
      [
        '(5) alg HS256',
        async () => {
          const secret = await generateSecret('HS256', { extractable: true });
          const claims = { htm: 'GET', htu: MCP, iat: epoch(), jti: 'j2', ath: athOf(bound) };
          return new SignJWT(claims)
            .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: await exportJWK(secret) })
            .sign(secret);
        },
      ],
      [
        '(5) alg not in the allow-list (PS256)',
        async () => {
          const rsa = await proofKey('PS256');
          return generateProof(rsa, MCP, 'GET', undefined, bound);
        },
      ],
      ['(4) typ JWT', () => signProof(keyPair, { htu: MCP, token: bound, header: { typ: 'JWT' } })],
      [
        '(7) a private key in jwk',
        async () => {
          const jwk = await exportJWK(keyPair.privateKey);
          return signProof(keyPair, { htu: MCP, token: bound, header: { jwk } });
        },
      ],
    ];
    const stale = (offset: number) =>
      signProof(keyPair, { htu: MCP, token: bound, claims: { iat: epoch() + offset } });

    for (const [name, make] of forged) {
      it(name, async () => {
        const answer = await withDPoP(MCP, bound, await make());
        assert.equal(answer.status, 401);
        assert.deepEqual(answer.challenges, [dpopChallenge('invalid_dpop_proof'), BEARER]);
        assert.deepEqual(answer.body, { detail: 'Unauthorized' });
      });
    }

    it('§11.1: a jti replayed', async () => {
      const proof = await proofFor(MCP, bound);
      assert.equal((await withDPoP(MCP, bound, proof)).status, 200);
      const again = await withDPoP(MCP, bound, proof);
      assert.equal(again.status, 401);
      assert.deepEqual(again.challenges, [dpopChallenge('invalid_dpop_proof'), BEARER]);
    });

    it('(1) two DPoP header lines, over a raw socket', async () => {
      const proof = await proofFor(MCP, bound);
      const raw = await sendRaw(
        port,
        `GET /mcp HTTP/1.1\r\nHost: api.test\r\nAuthorization: DPoP ${bound}\r\n` +
          `DPoP: ${proof}\r\nDPoP: ${proof}\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(raw.status, 401);
      const lines = raw.head.split('\r\n').filter((line) => /^www-authenticate:/i.test(line));
      assert.deepEqual(
        lines.map((line) => line.slice(line.indexOf(':') + 1).trim()),
        [dpopChallenge('invalid_dpop_proof'), BEARER],
      );
    });

    it('the DPoP scheme without a proof', async () => {
      const answer = await get(MCP, { authorization: `DPoP ${bound}` });
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.challenges, [dpopChallenge('invalid_dpop_proof'), BEARER]);
    });
  });

  describe('§7: the token and the proof key, refused with invalid_token', () => {
    it("a proof key other than the token's cnf.jkt: a JWT, an introspected token", async () => {
      const other = await proofKey('ES256');
      const rows = [
        [MCP, bound, [dpopChallenge('invalid_token'), BEARER]],
        [
          OPAQUE_RESOURCE,
          boundOpaque,
          [`DPoP realm="api", error="invalid_token", ${ALGS}, ${OPAQUE_METADATA}`],
        ],
      ] as const;
      for (const [url, token, challenges] of rows) {
        const proof = await generateProof(other, url, 'GET', undefined, token);
        const answer = await withDPoP(url, token, proof);
        assert.equal(answer.status, 401, url);
        assert.deepEqual(answer.challenges, challenges, url);
      }
    });

    it('an unbound token sent with the DPoP scheme and a valid proof', async () => {
      const answer = await withDPoP(MCP, unbound, await proofFor(MCP, unbound));
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.challenges, [dpopChallenge('invalid_token'), BEARER]);
    });

    it('§7.2: a DPoP-bound token sent as Bearer: no downgrade, whichever route', async () => {
      const both = await get(MCP, { authorization: `Bearer ${bound}` });
      assert.equal(both.status, 401);
      assert.deepEqual(both.challenges, [dpopChallenge(), BEARER_INVALID]);
      const only = await get(`${MCP}/only`, { authorization: `Bearer ${bound}` });
      assert.equal(only.status, 401);
      assert.deepEqual(only.challenges, [dpopChallenge()]);
    });
  });

  describe('§8, §9: server nonces', () => {
    const url = `${MCP}/nonced`;
    const nonces = dpopNonces({ secret: NONCE_SECRET });

    it('a proof without a nonce, or with a stale one: use_dpop_nonce and a fresh DPoP-Nonce', async () => {
      const stale = nonces.issue(Date.now() - 15 * 60_000);
      for (const nonce of [undefined, stale]) {
        const answer = await withDPoP(url, bound, await proofFor(url, bound, nonce));
        assert.equal(answer.status, 401, String(nonce));
        assert.deepEqual(answer.challenges, [dpopChallenge('use_dpop_nonce')]);
        assert.equal(answer.nonce, nonces.issue(Date.now()));
      }
    });

    it('a nonce made by another instance sharing the secret passes', async () => {
      const answer = await withDPoP(
        url,
        bound,
        await proofFor(url, bound, nonces.issue(Date.now())),
      );
      assert.equal(answer.status, 200);
      assert.equal(answer.nonce, undefined);
    });

    it('a bad proof with a good nonce is still invalid_dpop_proof', async () => {
      const proof = await generateProof(keyPair, url, 'POST', nonces.issue(Date.now()), bound);
      const answer = await withDPoP(url, bound, proof);
      assert.deepEqual(answer.challenges, [dpopChallenge('invalid_dpop_proof')]);
      assert.equal(answer.nonce, undefined);
    });
  });

  describe('§11.1: instances sharing one Redis', () => {
    /** An instance of the service: its own DPoPBearer, the one Redis, the one nonce secret. */
    async function instance(t: TestContext, url: string, keyPrefix: string): Promise<number> {
      const redis = new Redis(url, { maxRetriesPerRequest: 0 });
      t.after(() => {
        redis.disconnect();
      });
      const replay = redisReplayStore(redis, { prefix: keyPrefix });
      const nonces = { secret: NONCE_SECRET };
      const dpop = new DPoPBearer({ tokens: jwt, algorithms, replay, nonces });
      const server = Fastify({ logger: false });
      t.after(() => server.close());
      await server.register(vouch, { csrf: false });
      server.get('/mcp', { auth: dpop, scopes: ['mcp:tools'] }, async () => ({}));
      return Number(new URL(await server.listen({ port: 0, host: '127.0.0.1' })).port);
    }

    it("a proof used on one is refused on the other; one's nonce passes on the other", async (t) => {
      const namespace = await redisNamespace(t);
      if (namespace === undefined) return;
      const one = await instance(t, namespace.url, namespace.keyPrefix);
      const two = await instance(t, namespace.url, namespace.keyPrefix);
      const asked = await withDPoP(MCP, bound, await proofFor(MCP, bound), one);
      assert.deepEqual(asked.challenges, [dpopChallenge('use_dpop_nonce')]);
      const proof = await proofFor(MCP, bound, asked.nonce);
      assert.equal((await withDPoP(MCP, bound, proof, two)).status, 200);
      const replayed = await withDPoP(MCP, bound, proof, one);
      assert.equal(replayed.status, 401);
      assert.deepEqual(replayed.challenges, [dpopChallenge('invalid_dpop_proof')]);
    });
  });

  describe('fail closed: 503, never 401', () => {
    it('the introspection endpoint does not answer', async () => {
      // A token never introspected yet: nothing cached answers for the endpoint.
      const fresh = await tokenFor(OPAQUE_RESOURCE, oauth.DPoP(client, keyPair));
      as.stalled = true;
      try {
        const answer = await withDPoP(
          OPAQUE_RESOURCE,
          fresh,
          await proofFor(OPAQUE_RESOURCE, fresh),
        );
        assert.deepEqual([answer.status, answer.retryAfter], [503, '5']);
        assert.deepEqual(answer.body, { detail: 'Service Unavailable' });
      } finally {
        as.stalled = false;
      }
    });

    it('the replay store is full of live proofs', async () => {
      const url = `${MCP}/full`;
      assert.equal((await withDPoP(url, bound, await proofFor(url, bound))).status, 200);
      const answer = await withDPoP(url, bound, await proofFor(url, bound));
      assert.deepEqual([answer.status, answer.retryAfter], [503, '5']);
    });
  });
});

function epoch(offset = 0): number {
  return Math.floor(Date.now() / 1000) + offset;
}
