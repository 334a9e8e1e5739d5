import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  base64url,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  generateSecret,
  importJWK,
  SignJWT,
  type JWTPayload,
} from 'jose';
import type { Outcome } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import {
  AUDIENCE,
  epoch,
  handMade,
  ISSUER,
  sign,
  testKey,
  type TestKey,
} from '../../test/helpers/jwt.js';
import { HttpBearer } from '../http/http-bearer.js';
import { JwtBearer, type JwtBearerOptions } from './index.js';

function request(token: string): RequestView {
  const header = `Bearer ${token}`;
  return {
    method: 'GET',
    url: '/x',
    headers: { authorization: header },
    raw: { rawHeaders: ['Authorization', header] },
  };
}

function verify<T>(bearer: JwtBearer<T>, token: string): Promise<Outcome<T>> {
  return Promise.resolve(bearer.verify(request(token)));
}

const settings = { issuer: ISSUER, audience: AUDIENCE } as const;

/** Claims a token needs to be accepted: the expected issuer and audience, valid for a minute. */
function claimsFor(): JWTPayload {
  return { iss: ISSUER, aud: AUDIENCE, exp: epoch(60) };
}

describe('JwtBearer', () => {
  const keys: Record<string, TestKey> = {};
  before(async () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA']) keys[alg] = await testKey(alg);
  });
  const key = (alg: string) => keys[alg] as TestKey;

  for (const alg of ['RS256', 'ES256', 'EdDSA']) {
    describe(`${alg}, the public key given locally`, () => {
      const bearer = () =>
        new JwtBearer({ ...settings, keys: key(alg).publicKey, algorithms: [alg] });

      it('accepts a valid token: request.auth is its payload, scopes and all', async () => {
        const token = await sign(key(alg));
        const outcome = await verify(bearer(), token);
        assert.equal(outcome.state, 'accepted');
        const payload = (outcome as { value: JWTPayload }).value;
        assert.equal(payload.iss, ISSUER);
        assert.equal(payload.sub, 'user-1');
        assert.equal(payload['scope'], 'pets:read pets:write');
      });

      const refused: readonly { what: string; claims: Record<string, unknown> }[] = [
        { what: 'expired', claims: { exp: epoch(-60) } },
        { what: 'not yet valid (nbf)', claims: { nbf: epoch(60) } },
        { what: 'without exp', claims: { exp: undefined } },
        { what: 'from another issuer', claims: { iss: 'https://evil.test/' } },
        { what: 'without iss', claims: { iss: undefined } },
        { what: 'for another audience', claims: { aud: 'https://other-api.test/' } },
        { what: 'without aud', claims: { aud: undefined } },
        { what: 'with an exp that is not a number', claims: { exp: 'tomorrow' } },
      ];
      for (const { what, claims } of refused) {
        it(`refuses a token ${what}`, async () => {
          assert.deepEqual(await verify(bearer(), await sign(key(alg), { claims })), {
            state: 'rejected',
          });
        });
      }

      it('refuses a token signed by another key, or with its payload changed', async () => {
        const other = await testKey(alg, key(alg).kid);
        assert.deepEqual(await verify(bearer(), await sign(other)), { state: 'rejected' });
        const [header, , signature] = (await sign(key(alg))).split('.');
        const payload = base64url.encode(JSON.stringify({ ...claimsFor(), sub: 'admin' }));
        const tampered = `${header}.${payload}.${signature}`;
        assert.deepEqual(await verify(bearer(), tampered), { state: 'rejected' });
      });
    });
  }

  it('allows clockTolerance seconds of skew on exp and nbf (default 5)', async () => {
    const lenient = new JwtBearer({
      ...settings,
      keys: key('ES256').publicKey,
      algorithms: ['ES256'],
    });
    const strict = new JwtBearer({
      ...settings,
      keys: key('ES256').publicKey,
      algorithms: ['ES256'],
      clockTolerance: 0,
    });
    const justExpired = await sign(key('ES256'), { claims: { exp: epoch(-2) } });
    const almostValid = await sign(key('ES256'), { claims: { nbf: epoch(2) } });
    assert.equal((await verify(lenient, justExpired)).state, 'accepted');
    assert.equal((await verify(lenient, almostValid)).state, 'accepted');
    assert.equal((await verify(strict, justExpired)).state, 'rejected');
    assert.equal((await verify(strict, almostValid)).state, 'rejected');
  });

  it('accepts any of several issuers and audiences, and any at all when told to', async () => {
    const token = await sign(key('ES256'), { claims: { iss: 'b', aud: ['x', 'y'] } });
    const several = new JwtBearer({
      keys: key('ES256').publicKey,
      algorithms: ['ES256'],
      issuer: ['a', 'b'],
      audience: ['y', 'z'],
    });
    assert.equal((await verify(several, token)).state, 'accepted');
    const any = new JwtBearer({
      keys: key('ES256').publicKey,
      algorithms: ['ES256'],
      issuer: false,
      audience: false,
    });
    const anonymous = await sign(key('ES256'), { claims: { iss: undefined, aud: undefined } });
    assert.equal((await verify(any, anonymous)).state, 'accepted');
  });

  it('requires the JOSE typ given as typ (RFC 8725 §3.11), compared as RFC 7515 says', async () => {
    const typed = new JwtBearer({
      ...settings,
      keys: key('ES256').publicKey,
      algorithms: ['ES256'],
      typ: 'at+jwt',
    });
    const token = (typ?: string) =>
      new SignJWT(claimsFor())
        .setProtectedHeader({ alg: 'ES256', ...(typ === undefined ? {} : { typ }) })
        .sign(key('ES256').privateKey);
    for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT']) {
      assert.equal((await verify(typed, await token(typ))).state, 'accepted', typ);
    }
    for (const typ of [undefined, 'JWT', 'application/jwt']) {
      assert.deepEqual(await verify(typed, await token(typ)), { state: 'rejected' }, typ);
    }
  });

  describe('algorithms', () => {
    it('refuses an unsigned token (alg none), made by hand', async () => {
      const rsa = key('RS256');
      const bearer = new JwtBearer({ ...settings, keys: rsa.publicKey, algorithms: ['RS256'] });
      const claims = { ...claimsFor(), sub: 'admin' };
      // The same claims, signed: accepted, so what refuses the others is their algorithm.
      assert.equal((await verify(bearer, await sign(rsa, { claims }))).state, 'accepted');
      for (const alg of ['none', 'None', 'NONE']) {
        for (const signature of ['', 'c2ln']) {
          const unsigned = handMade({ alg, typ: 'JWT', kid: rsa.kid }, claims, signature);
          assert.deepEqual(await verify(bearer, unsigned), { state: 'rejected' }, alg);
        }
      }
    });

    it('refuses HS256 signed with the RSA public key as the secret (algorithm confusion)', async () => {
      const rsa = key('RS256');
      const pem = await exportSPKI(rsa.publicKey);
      const claims = { ...claimsFor(), sub: 'admin' };
      const forged = await Promise.all(
        [new TextEncoder().encode(pem), new TextEncoder().encode(JSON.stringify(rsa.jwk))].map(
          (secret) =>
            new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: rsa.kid }).sign(secret),
        ),
      );
      const fromKey = new JwtBearer({ ...settings, keys: rsa.publicKey, algorithms: ['RS256'] });
      const fromJwk = new JwtBearer({ ...settings, keys: rsa.jwk, algorithms: ['RS256'] });
      const fromSet = new JwtBearer({
        ...settings,
        keys: { keys: [rsa.jwk] },
        algorithms: ['RS256'],
      });
      for (const bearer of [fromKey, fromJwk, fromSet]) {
        assert.equal((await verify(bearer, await sign(rsa, { claims }))).state, 'accepted');
        for (const token of forged) assert.equal((await verify(bearer, token)).state, 'rejected');
      }
    });

    it('refuses a well-signed token in an algorithm outside the allow-list', async () => {
      // One RSA key pair, used for RS256 and for PS256: jose's JWKs carry no alg.
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const publicJwk = await exportJWK(publicKey);
      const privateJwk = await exportJWK(privateKey);
      assert.equal(publicJwk.alg, undefined);
      const ps256 = await new SignJWT(claimsFor())
        .setProtectedHeader({ alg: 'PS256' })
        .sign(await importJWK(privateJwk, 'PS256'));
      const rs256Only = new JwtBearer({ ...settings, keys: publicJwk, algorithms: ['RS256'] });
      assert.deepEqual(await verify(rs256Only, ps256), { state: 'rejected' });
      const both = new JwtBearer({ ...settings, keys: publicJwk, algorithms: ['RS256', 'PS256'] });
      assert.equal((await verify(both, ps256)).state, 'accepted');
    });

    it('refuses an allowed algorithm that the one key given cannot verify', async () => {
      const bearer = new JwtBearer({
        ...settings,
        keys: key('RS256').publicKey,
        algorithms: ['RS256', 'ES256'],
      });
      assert.equal((await verify(bearer, await sign(key('ES256')))).state, 'rejected');
    });

    it('verifies HS256 with a secret given as keys', async () => {
      const secret = crypto.getRandomValues(new Uint8Array(32));
      const bearer = new JwtBearer({ ...settings, keys: secret, algorithms: ['HS256'] });
      const token = await new SignJWT({ ...claimsFor(), sub: 'svc' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(secret);
      assert.equal((await verify(bearer, token)).state, 'accepted');
      const other = await new SignJWT({ ...claimsFor(), sub: 'svc' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(await generateSecret('HS256'));
      assert.equal((await verify(bearer, other)).state, 'rejected');
    });
  });

  describe('a JWK set given locally', () => {
    it('picks the key by kid, and refuses a kid it lacks', async () => {
      const bearer = new JwtBearer({
        ...settings,
        keys: { keys: [key('RS256').jwk, key('ES256').jwk, key('EdDSA').jwk] },
        algorithms: ['RS256', 'ES256', 'EdDSA'],
      });
      for (const alg of ['RS256', 'ES256', 'EdDSA']) {
        assert.equal((await verify(bearer, await sign(key(alg)))).state, 'accepted', alg);
      }
      const stranger = await sign(key('ES256'), { kid: 'stranger' });
      assert.equal((await verify(bearer, stranger)).state, 'rejected');
    });

    it('refuses a token without kid that several keys could verify', async () => {
      const second = await testKey('ES256', 'ES256-2');
      const bearer = new JwtBearer({
        ...settings,
        keys: { keys: [key('ES256').jwk, second.jwk] },
        algorithms: ['ES256'],
      });
      assert.equal((await verify(bearer, await sign(second))).state, 'accepted');
      assert.equal((await verify(bearer, await sign(second, { kid: null }))).state, 'rejected');
    });
  });

  describe('malformed and oversized tokens', () => {
    const bearer = () =>
      new JwtBearer({ ...settings, keys: key('ES256').publicKey, algorithms: ['ES256'] });
    const rows: readonly { what: string; token: string }[] = [
      { what: 'one part', token: 'abc' },
      { what: 'two parts', token: 'abc.def' },
      { what: 'four parts', token: 'a.b.c.d' },
      { what: 'a header that is not base64url JSON', token: 'bm90IGpzb24.e30.c2ln' },
      {
        what: 'a header that is JSON but not an object',
        token: `${handMade([], {}).split('.')[0]}.e30.c2ln`,
      },
      {
        what: 'a payload that is not JSON',
        token: `${handMade({ alg: 'ES256' }, {}).split('.')[0]}.bm90.c2ln`,
      },
      { what: 'a signature that is not base64url', token: `${handMade({ alg: 'ES256' }, {})}~~~` },
      { what: 'not a b64token', token: 'a.b.c d' },
    ];
    for (const { what, token } of rows) {
      it(`refuses ${what}`, async () => {
        assert.deepEqual(await verify(bearer(), token), { state: 'rejected' });
      });
    }

    it('refuses a token longer than maxLength without verifying it', async () => {
      const padding = 'x'.repeat(5000);
      const token = await sign(key('ES256'), { claims: { padding } });
      assert.ok(token.length > 4096);
      assert.deepEqual(await verify(bearer(), token), { state: 'rejected' });
      const roomy = new JwtBearer({
        ...settings,
        keys: key('ES256').publicKey,
        algorithms: ['ES256'],
        maxLength: 8192,
      });
      assert.equal((await verify(roomy, token)).state, 'accepted');
    });
  });

  describe('map', () => {
    it('makes request.auth from the payload and the request, or refuses', async () => {
      const seen: AuthRequest[] = [];
      const bearer = new JwtBearer({
        ...settings,
        keys: key('EdDSA').publicKey,
        algorithms: ['EdDSA'],
        map: async (payload, req) => {
          seen.push(req);
          return payload.sub === 'user-1' ? { id: payload.sub, scope: payload['scope'] } : null;
        },
      });
      const outcome = await verify(bearer, await sign(key('EdDSA')));
      assert.deepEqual(outcome, {
        state: 'accepted',
        value: { id: 'user-1', scope: 'pets:read pets:write' },
      });
      assert.equal(seen.length, 1);
      const other = await sign(key('EdDSA'), { claims: { sub: 'user-2' } });
      assert.deepEqual(await verify(bearer, other), { state: 'rejected' });
    });

    it('is not called for a token that fails verification', async () => {
      let calls = 0;
      const bearer = new JwtBearer({
        ...settings,
        keys: key('EdDSA').publicKey,
        algorithms: ['EdDSA'],
        map: () => ++calls,
      });
      await verify(bearer, await sign(key('EdDSA'), { claims: { exp: epoch(-60) } }));
      assert.equal(calls, 0);
    });

    it('lets an error of its own through, for the error handlers', async () => {
      const bearer = new JwtBearer({
        ...settings,
        keys: key('EdDSA').publicKey,
        algorithms: ['EdDSA'],
        map: () => {
          throw new Error('users table gone');
        },
      });
      await assert.rejects(verify(bearer, await sign(key('EdDSA'))), /users table gone/);
    });
  });

  it('refuses, at construction, options that would check too little or make no sense', () => {
    const base = { ...settings, keys: key('ES256').publicKey, algorithms: ['ES256'] };
    const refused: readonly { what: string; options: object; message: RegExp }[] = [
      { what: 'no issuer', options: { ...base, issuer: undefined }, message: /needs issuer/ },
      { what: 'an empty issuer', options: { ...base, issuer: '' }, message: /needs issuer/ },
      { what: 'no issuers', options: { ...base, issuer: [] }, message: /needs issuer/ },
      { what: 'no audience', options: { ...base, audience: undefined }, message: /needs audience/ },
      {
        what: 'an audience that is not a string',
        options: { ...base, audience: [AUDIENCE, 7] },
        message: /token's aud must hold, or false to accept any/,
      },
      {
        what: 'a negative clockTolerance',
        options: { ...base, clockTolerance: -1 },
        message: /clockTolerance must be a number of seconds/,
      },
      {
        what: 'an infinite clockTolerance',
        options: { ...base, clockTolerance: Infinity },
        message: /clockTolerance/,
      },
      {
        what: 'a clockTolerance that is not a number',
        options: { ...base, clockTolerance: '5s' },
        message: /clockTolerance/,
      },
      {
        what: 'a fractional jwksTimeout',
        options: { ...base, jwksTimeout: 2.5 },
        message: /jwksTimeout must be a whole number of milliseconds/,
      },
      {
        what: 'a negative jwksCooldown',
        options: { ...base, jwksCooldown: -1 },
        message: /jwksCooldown must be/,
      },
      {
        what: 'HS256 beside a public key',
        options: { ...base, algorithms: ['ES256', 'HS256'] },
        message: /HS256 takes a secret/,
      },
      { what: 'an unprintable realm', options: { ...base, realm: 'a\nb' }, message: /printable/ },
    ];
    for (const { what, options, message } of refused) {
      assert.throws(
        () => new JwtBearer(options as JwtBearerOptions),
        { code: 'VOUCH_ERR_CONFIGURATION', message },
        what,
      );
    }
  });

  it('is a Bearer scheme with bearerFormat JWT, and challenges as Bearer does', () => {
    const options: JwtBearerOptions = {
      ...settings,
      keys: { keys: [] },
      algorithms: ['RS256'],
    };
    const bearer = new JwtBearer(options);
    assert.equal(bearer.schemeName, 'bearerAuth_JWT');
    assert.deepEqual(bearer.securityScheme, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    assert.equal(bearer.challenge('api', true), 'Bearer realm="api", error="invalid_token"');
    assert.equal(bearer.challenge('api', false), 'Bearer realm="api"');
    assert.equal(bearer.readsCredential, true);
    const named = new JwtBearer({
      ...options,
      name: 'partnerJwt',
      realm: 'partners',
      description: 'Tokens from the partner issuer',
    });
    assert.equal(named.schemeName, 'partnerJwt');
    assert.equal(named.realm, 'partners');
    assert.deepEqual(named.securityScheme, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'Tokens from the partner issuer',
    });
  });

  describe('as an HttpBearer', () => {
    it('is one whose hook verifies a JWT: it overrides nothing HttpBearer calls', () => {
      const bearer = new JwtBearer({ ...settings, keys: { keys: [] }, algorithms: ['RS256'] });
      assert.ok(bearer instanceof HttpBearer);
      // Reading the token and judging the hook's answer are HttpBearer's, unchanged; verifyToken
      // is the entry for a request that proves a binding, and distrusts what the core asks of a
      // list's members before any runs (a forged client certificate).
      const added: string[] = [];
      for (
        let prototype: unknown = JwtBearer.prototype;
        prototype !== HttpBearer.prototype;
        prototype = Object.getPrototypeOf(prototype)
      ) {
        added.push(...Object.getOwnPropertyNames(prototype));
      }
      assert.deepEqual(new Set(added), new Set(['constructor', 'verifyToken', 'distrusts']));
    });

    it('verifies through authenticate(), which a subclass may extend', async () => {
      class TenantJwt extends JwtBearer {
        override async authenticate(request: AuthRequest, token: string) {
          const payload = await super.authenticate(request, token);
          return payload && payload['tenant'] === 'acme' ? payload : undefined;
        }
      }
      const bearer = new TenantJwt({
        ...settings,
        keys: key('ES256').publicKey,
        algorithms: ['ES256'],
      });
      const acme = await sign(key('ES256'), { claims: { tenant: 'acme' } });
      const other = await sign(key('ES256'), { claims: { tenant: 'other' } });
      const expired = await sign(key('ES256'), { claims: { tenant: 'acme', exp: epoch(-60) } });
      assert.equal((await verify(bearer, acme)).state, 'accepted');
      assert.equal((await verify(bearer, other)).state, 'rejected');
      assert.equal((await verify(bearer, expired)).state, 'rejected');
    });
  });

  it('consults a store (its 503 documented) over a JWKS URL, or when told so', () => {
    const local: JwtBearerOptions = { ...settings, keys: { keys: [] }, algorithms: ['RS256'] };
    const remote: JwtBearerOptions = {
      ...settings,
      jwksUrl: `${ISSUER}jwks.json`,
      algorithms: ['RS256'],
    };
    assert.equal(new JwtBearer(local).consultsStore, false);
    assert.equal(new JwtBearer({ ...local, consultsStore: true }).consultsStore, true);
    assert.equal(new JwtBearer(remote).consultsStore, true);
    assert.equal(new JwtBearer({ ...remote, consultsStore: false }).consultsStore, false);
  });

  it('answers absent without a token and reads no other scheme', async () => {
    const bearer = new JwtBearer({
      ...settings,
      keys: key('ES256').publicKey,
      algorithms: ['ES256'],
    });
    assert.deepEqual(await bearer.verify({ method: 'GET', url: '/', headers: {} }), {
      state: 'absent',
    });
    assert.deepEqual(
      await bearer.verify({ method: 'GET', url: '/', headers: { authorization: 'Basic eDp5' } }),
      { state: 'absent' },
    );
  });
});
