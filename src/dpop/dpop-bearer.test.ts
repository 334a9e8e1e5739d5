import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { generateProof } from 'dpop';
import { decodeJwt } from 'jose';
import { proofKey, signProof, type ProofKey } from '../../test/helpers/dpop-proof.js';
import { AUDIENCE, ISSUER, sign, testKey, type TestKey } from '../../test/helpers/jwt.js';
import { clientCertHeader, testPki } from '../../test/helpers/pki.js';
import { resolveAuth, type Requirement } from '../core/auth-spec.js';
import { authenticate } from '../core/authenticate.js';
import { ConfigurationError, StoreUnavailableError } from '../core/errors.js';
import { ABSENT, AMBIGUOUS, REJECTED, type Outcome } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { edge as makeEdge } from '../edge/edge.js';
import { JwtBearer } from '../jwt/jwt-bearer.js';
import { protectedResource } from '../oauth/protected-resource.js';
import { DPOP_ALGORITHMS } from './dpop-algorithms.js';
import { DPoPBearer, type DPoPBearerOptions } from './dpop-bearer.js';
import { dpopNonces } from './dpop-nonces.js';
import { memoryReplayStore } from './memory-replay-store.js';
import type { ReplayStore } from './replay-store.js';

const URL_ = 'https://api.test/x';
const edge = { publicUrl: () => URL_ };
const INVALID_PROOF = { state: 'rejected', error: 'invalid_dpop_proof' };
const SECRET = 'a-nonce-secret-of-32-characters!!';

/** A GET to /x with these header lines, as a client sent them. */
function request(...lines: [string, string][]): RequestView {
  return {
    method: 'GET',
    url: '/x',
    headers: Object.fromEntries(lines.map(([name, value]) => [name.toLowerCase(), value])),
    raw: { rawHeaders: lines.flat() },
  };
}

/** A real replay store, counting the claims it is asked for. */
function counted(store: ReplayStore = memoryReplayStore()) {
  const counter = { claims: 0 };
  const replay: ReplayStore = {
    claim(key, expiresAt) {
      counter.claims++;
      return store.claim(key, expiresAt);
    },
  };
  return { replay, counter };
}

describe('DPoPBearer', () => {
  let issuerKey: TestKey;
  let jwt: JwtBearer;
  let key: ProofKey;
  let token: string;
  const dpopWith = (options: Partial<DPoPBearerOptions<unknown>> = {}) =>
    new DPoPBearer({ tokens: jwt, edge, ...options });
  const tokenFor = (claims: Record<string, unknown>) => sign(issuerKey, { claims });
  const send = (bearer: DPoPBearer, bound: string, proof: string): Promise<Outcome<unknown>> =>
    Promise.resolve(bearer.verify(request(['Authorization', `DPoP ${bound}`], ['DPoP', proof])));

  before(async () => {
    issuerKey = await testKey('ES256');
    jwt = new JwtBearer({
      issuer: ISSUER,
      audience: AUDIENCE,
      keys: issuerKey.jwk,
      algorithms: ['ES256'],
    });
    key = await proofKey('ES256');
    token = await tokenFor({ cnf: { jkt: key.jkt } });
  });

  it("accepts a bound token with its key's proof: request.auth is the verifier's value", async () => {
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    const outcome = await send(dpopWith(), token, proof);
    assert.deepEqual(outcome, { state: 'accepted', value: decodeJwt(token) });
    const dpop = dpopWith();
    assert.deepEqual(dpop.scopesOf(decodeJwt(token)), ['pets:read', 'pets:write']);
  });

  it('is absent without Authorization: DPoP <token>; ambiguous with two Authorization lines', () => {
    const dpop = dpopWith();
    assert.equal(dpop.verify(request()), ABSENT);
    assert.equal(dpop.verify(request(['Authorization', `Bearer ${token}`])), ABSENT);
    assert.equal(dpop.verify(request(['Authorization', 'DPoP'], ['DPoP', 'p'])), ABSENT);
    const twice = request(['Authorization', 'DPoP a'], ['authorization', 'DPoP b']);
    assert.equal(dpop.verify(twice), AMBIGUOUS);
  });

  it('matches the scheme in any case', async () => {
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    const lower = request(['Authorization', `dpop ${token}`], ['dpop', proof]);
    assert.equal((await dpopWith().verify(lower)).state, 'accepted');
  });

  it('refuses a token that is no token68, or too long, as invalid_token', async () => {
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    assert.equal(await send(dpopWith(), 'not a token', proof), REJECTED);
    assert.equal(await send(dpopWith({ maxLength: 10 }), token, proof), REJECTED);
  });

  it('§4.3 (1): refuses no proof, an empty one, or two DPoP lines, as invalid_dpop_proof', async () => {
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    const authorization: [string, string] = ['Authorization', `DPoP ${token}`];
    const dpop = dpopWith();
    assert.deepEqual(dpop.verify(request(authorization)), INVALID_PROOF);
    assert.deepEqual(dpop.verify(request(authorization, ['DPoP', ''])), INVALID_PROOF);
    const twice = request(authorization, ['DPoP', proof], ['dpop', proof]);
    assert.deepEqual(dpop.verify(twice), INVALID_PROOF);
  });

  it('refuses an unbound token, or one bound to another key, as invalid_token: the store untouched', async () => {
    const { replay, counter } = counted();
    const dpop = dpopWith({ replay });
    const other = await proofKey('ES256');
    for (const refused of [await tokenFor({}), await tokenFor({ cnf: { jkt: other.jkt } })]) {
      const proof = await generateProof(key, URL_, 'GET', undefined, refused);
      assert.equal(await send(dpop, refused, proof), REJECTED);
    }
    assert.equal(counter.claims, 0);
  });

  it('§11.1: refuses a proof used before, as invalid_dpop_proof; a bad proof never reaches the store', async () => {
    const { replay, counter } = counted();
    const dpop = dpopWith({ replay });
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    assert.equal((await send(dpop, token, proof)).state, 'accepted');
    assert.deepEqual(await send(dpop, token, proof), INVALID_PROOF);
    const bad = await signProof(key, { htm: 'POST', htu: URL_, token });
    assert.deepEqual(await send(dpop, token, bad), INVALID_PROOF);
    assert.equal(counter.claims, 2);
  });

  it('§11.1: claims a proof once per request: a request checked again passes, another is a replay', async () => {
    const { replay, counter } = counted();
    const dpop = dpopWith({ replay });
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    const headers: Record<string, string> = { authorization: `DPoP ${token}`, dpop: proof };
    const once: RequestView = { method: 'GET', url: '/x', headers };
    assert.equal((await dpop.verify(once)).state, 'accepted');
    assert.equal((await dpop.verify(once)).state, 'accepted', 'a step-up checks it again');
    assert.equal(counter.claims, 1);
    assert.deepEqual(await send(dpop, token, proof), INVALID_PROOF, 'another request');
    // A proof swapped in on the same request is claimed as its own, and so forgets the first.
    headers['dpop'] = await generateProof(key, URL_, 'GET', undefined, token);
    assert.equal((await dpop.verify(once)).state, 'accepted');
    headers['dpop'] = proof;
    assert.deepEqual(await dpop.verify(once), INVALID_PROOF);
    assert.equal(counter.claims, 4);
  });

  it('refuses every proof when the edge cannot tell the public URL', async () => {
    const dpop = dpopWith({ edge: { publicUrl: () => undefined } });
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    assert.deepEqual(await send(dpop, token, proof), INVALID_PROOF);
  });

  it('§9: asks for a nonce with a fresh DPoP-Nonce, then accepts it', async () => {
    const dpop = dpopWith({ nonces: { secret: SECRET } });
    const first = await generateProof(key, URL_, 'GET', undefined, token);
    const nonce = dpopNonces({ secret: SECRET }).issue(Date.now());
    const asked = await send(dpop, token, first);
    assert.deepEqual(asked, {
      state: 'rejected',
      error: 'use_dpop_nonce',
      headers: { 'dpop-nonce': nonce },
    });
    const second = await generateProof(key, URL_, 'GET', nonce, token);
    assert.equal((await send(dpop, token, second)).state, 'accepted');
    const bad = await signProof(key, { htu: 'https://api.test/y', token });
    assert.deepEqual(await send(dpop, token, bad), INVALID_PROOF, 'a bad proof is just that');
  });

  it('fails closed: a replay store or a verifier that cannot answer throws, for a 503', async () => {
    const down: ReplayStore = {
      claim: () => Promise.reject(new StoreUnavailableError('redis down')),
    };
    const proof = await generateProof(key, URL_, 'GET', undefined, token);
    await assert.rejects(send(dpopWith({ replay: down }), token, proof), StoreUnavailableError);
    const unreachable = {
      verifyToken: () => Promise.reject(new StoreUnavailableError('introspection down')),
      scopesOf: () => [],
    };
    const other = await generateProof(key, URL_, 'GET', undefined, token);
    const dpop = new DPoPBearer({ tokens: unreachable, edge });
    await assert.rejects(send(dpop, token, other), StoreUnavailableError);
  });

  describe('beside a client certificate its tokens read (RFC 8705)', () => {
    const front = makeEdge({ trustedProxies: 'loopback' });
    const pki = testPki();
    /** From a client (not the trusted proxy), with a Client-Cert only the proxy may send. */
    const forged = (...lines: [string, string][]): RequestView => ({
      ...request(['Client-Cert', clientCertHeader(pki.client.der)], ...lines),
      socket: { remoteAddress: '203.0.113.7' },
    });
    let certified: JwtBearer;
    before(() => {
      certified = new JwtBearer({
        issuer: ISSUER,
        audience: AUDIENCE,
        keys: issuerKey.jwk,
        algorithms: ['ES256'],
        clientCertificates: front,
      });
    });

    it('distrusts what its tokens distrust: a DPoP token it presents is refused with it', () => {
      const dpop = new DPoPBearer({ tokens: certified, edge });
      const proof: [string, string] = ['DPoP', 'proof'];
      assert.equal(dpop.distrusts(forged(['Authorization', `DPoP ${token}`], proof)), REJECTED);
      assert.equal(dpop.distrusts(forged(['Authorization', `Bearer ${token}`])), true);
      assert.equal(dpop.distrusts(forged()), true);
      assert.equal(dpop.distrusts({ ...request(), socket: { remoteAddress: '127.0.0.1' } }), false);
      // Over tokens that read no certificate, or a verifier that distrusts nothing.
      assert.equal(dpopWith().distrusts(forged()), false);
      const tokens = { verifyToken: () => undefined, scopesOf: () => [] };
      assert.equal(new DPoPBearer({ tokens, edge }).distrusts(forged()), false);
    });

    it('in [dpop, jwt], a forged certificate refuses either token, and each says whether it was its', async () => {
      const dpop = new DPoPBearer({ tokens: certified, edge });
      const requirements = resolveAuth([dpop, certified], 'GET /x') as readonly Requirement[];
      const proof = await generateProof(key, URL_, 'GET', undefined, token);
      const algs = `algs="${DPOP_ALGORITHMS.join(' ')}"`;
      const answers = await Promise.all([
        authenticate(requirements, forged(['Authorization', `DPoP ${token}`], ['DPoP', proof]), {
          realm: 'api',
        }),
        authenticate(requirements, forged(['Authorization', `Bearer ${token}`]), { realm: 'api' }),
        authenticate(requirements, forged(), { realm: 'api' }),
      ]);
      assert.deepEqual(
        answers.map((answer) => !answer.ok && answer.challenges),
        [
          [`DPoP realm="api", error="invalid_token", ${algs}`, 'Bearer realm="api"'],
          [`DPoP realm="api", ${algs}`, 'Bearer realm="api", error="invalid_token"'],
          [`DPoP realm="api", ${algs}`, 'Bearer realm="api"'],
        ],
      );
    });
  });

  describe('challenges (RFC 9449 §7.1)', () => {
    const algs = `algs="${DPOP_ALGORITHMS.join(' ')}"`;

    it('names the algorithms, and the error of a refusal (invalid_token by default)', () => {
      const dpop = dpopWith();
      assert.equal(dpop.challenge('api', false), `DPoP realm="api", ${algs}`);
      assert.equal(dpop.challenge('api', true), `DPoP realm="api", error="invalid_token", ${algs}`);
      assert.equal(
        dpop.challenge('api', true, ['a'], 'use_dpop_nonce'),
        `DPoP realm="api", error="use_dpop_nonce", ${algs}`,
        'no scope without a resource',
      );
      assert.equal(
        dpop.badRequestChallenge('api'),
        `DPoP realm="api", error="invalid_request", ${algs}`,
      );
    });

    it('under a resource, the scopes required and its metadata, as Bearer', () => {
      const api = protectedResource({
        resource: 'https://api.test/mcp',
        authorizationServers: [ISSUER],
      });
      const tokens = { verifyToken: () => undefined, scopesOf: () => [], resource: api };
      const dpop = new DPoPBearer({ tokens, algorithms: ['ES256'] });
      const metadata =
        'resource_metadata="https://api.test/.well-known/oauth-protected-resource/mcp"';
      assert.equal(
        dpop.challenge('api', true, ['mcp:tools'], 'invalid_dpop_proof'),
        `DPoP realm="api", error="invalid_dpop_proof", algs="ES256", scope="mcp:tools", ${metadata}`,
      );
      assert.equal(
        dpop.scopeChallenge('api', ['a', 'b']),
        `DPoP realm="api", error="insufficient_scope", algs="ES256", scope="a b", ${metadata}`,
      );
      assert.equal(dpop.resource, api);
    });
  });

  describe('configuration', () => {
    it('is documented as the http scheme DPoP, under dpopAuth or its name', () => {
      const dpop = dpopWith({ description: 'bound tokens' });
      assert.deepEqual(dpop.securityScheme, {
        type: 'http',
        scheme: 'DPoP',
        description: 'bound tokens',
      });
      assert.equal(dpop.schemeName, 'dpopAuth');
      assert.equal(dpopWith({ name: 'dpop2' }).schemeName, 'dpop2');
      assert.deepEqual(dpopWith().securityScheme, { type: 'http', scheme: 'DPoP' });
      assert.equal(dpop.readsCredential, true, 'two Authorization lines answer 400');
      assert.equal(dpop.consultsStore, true, 'a replay store may answer 503');
    });

    it('needs an edge, or a verifier with a resource', () => {
      assert.throws(() => new DPoPBearer({ tokens: jwt }), ConfigurationError);
    });

    it('refuses a maxAge or clockTolerance that is not whole seconds, and symmetric algs', () => {
      for (const bad of [{ maxAge: -1 }, { maxAge: 1.5 }, { clockTolerance: -5 }]) {
        assert.throws(() => dpopWith(bad), ConfigurationError, JSON.stringify(bad));
      }
      assert.throws(() => dpopWith({ algorithms: ['HS256'] }), ConfigurationError);
      assert.throws(() => dpopWith({ nonces: { secret: 'short' } }), ConfigurationError);
    });
  });
});
