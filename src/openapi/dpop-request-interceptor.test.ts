import assert from 'node:assert/strict';
import { createHash, type webcrypto } from 'node:crypto';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  EmbeddedJWK,
  jwtVerify,
  type JWTPayload,
} from 'jose';
import type { AsyncRequestInterceptor, InterceptedRequest } from './csrf-request-interceptor.js';
import { dpopRequestInterceptorSource } from './dpop-interceptor-source.js';
import { dpopRequestInterceptor } from './dpop-request-interceptor.js';

const PAGE = 'http://api.test/api/docs';
const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln';

/** The page's DPoP state, as the interceptor leaves it on `window`. */
interface PageState {
  key(): Promise<{ privateKey: webcrypto.CryptoKey; jwk: Record<string, string>; jkt: string }>;
}

/** A fresh page: its `window`, and the interceptor as Swagger UI runs it there. */
function inPage(crypto: object = globalThis.crypto) {
  const window: Record<string, unknown> = { location: new URL(PAGE), crypto };
  const intercept = runInNewContext(`(${dpopRequestInterceptorSource()})`, {
    window,
    URL,
    TextEncoder,
    btoa,
  }) as AsyncRequestInterceptor;
  return { window, intercept, state: () => window['__vouchDpop'] as PageState };
}

function dpopRequest(extra: Partial<InterceptedRequest> = {}): InterceptedRequest {
  return {
    url: 'http://api.test/api/pets?limit=2#top',
    method: 'GET',
    headers: { Authorization: `DPoP ${TOKEN}` },
    ...extra,
  };
}

/** The proof a signed request carries, verified against the key it embeds. */
async function proofOf(request: InterceptedRequest) {
  const proof = request.headers?.['DPoP'];
  assert.ok(proof, 'the request carries a DPoP header');
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
    typ: 'dpop+jwt',
    algorithms: ['ES256'],
  });
  return { proof, payload: payload as JWTPayload & Record<string, unknown>, protectedHeader };
}

describe('dpopRequestInterceptor (RFC 9449 §4.2)', () => {
  it('is plain ES5 text that names nothing from the server', () => {
    const text = dpopRequestInterceptorSource();
    assert.match(text, /^function vouchDpopInterceptor\(request\) \{/);
    assert.doesNotMatch(text, /=>|\blet\b|\bconst\b|`/);
  });

  it('signs a proof for Authorization: DPoP with the page key, for this request', async () => {
    const page = inPage();
    const before = Math.floor(Date.now() / 1000);
    const request = await page.intercept(dpopRequest());
    const { payload, protectedHeader } = await proofOf(request);
    assert.equal(request.headers?.['Authorization'], `DPoP ${TOKEN}`);
    assert.deepEqual(Object.keys(protectedHeader), ['typ', 'alg', 'jwk']);
    assert.deepEqual(Object.keys(protectedHeader.jwk ?? {}), ['crv', 'kty', 'x', 'y']);
    assert.deepEqual(Object.keys(payload), ['jti', 'htm', 'htu', 'iat', 'ath']);
    assert.equal(payload['htm'], 'GET');
    assert.equal(payload['htu'], 'http://api.test/api/pets', '§4.2: without query and fragment');
    assert.equal(payload['ath'], createHash('sha256').update(TOKEN).digest('base64url'));
    assert.match(payload.jti ?? '', /^[A-Za-z0-9_-]{22}$/, '128 random bits');
    assert.ok(payload.iat! >= before && payload.iat! <= Math.floor(Date.now() / 1000) + 1);
    const { jkt } = await page.state().key();
    assert.equal(await calculateJwkThumbprint(protectedHeader.jwk!), jkt, 'RFC 7638 thumbprint');
  });

  it('keeps one key for the page, its private half not extractable, and a new jti each time', async () => {
    const page = inPage();
    const first = await proofOf(await page.intercept(dpopRequest()));
    const second = await proofOf(await page.intercept(dpopRequest()));
    assert.deepEqual(first.protectedHeader.jwk, second.protectedHeader.jwk);
    assert.notEqual(first.payload.jti, second.payload.jti);
    const { privateKey } = await page.state().key();
    assert.equal(privateKey.extractable, false);
    await assert.rejects(globalThis.crypto.subtle.exportKey('jwk', privateKey));
    const other = await proofOf(await inPage().intercept(dpopRequest()));
    assert.notDeepEqual(other.protectedHeader.jwk, first.protectedHeader.jwk, 'a key per page');
  });

  for (const [name, headers] of [
    ['no headers', undefined],
    ['no Authorization', { accept: 'application/json' }],
    ['a Bearer token', { Authorization: `Bearer ${TOKEN}` }],
    ['DPoP without a token', { Authorization: 'DPoP ' }],
    ['DPoP with two words', { Authorization: 'DPoP a b' }],
    ['a longer scheme', { Authorization: `DPoPx ${TOKEN}` }],
  ] as const) {
    it(`leaves a request with ${name} as it is, at once`, () => {
      const request = {
        url: '/api/pets',
        method: 'GET',
        ...(headers && { headers: { ...headers } }),
      };
      const answer = inPage().intercept(request);
      assert.equal(answer, request, 'the request itself, not a promise');
      assert.deepEqual(answer.headers, headers);
    });
  }

  it('reads the header in any case, and replaces a DPoP header already there', async () => {
    const request = await inPage().intercept({
      url: '/api/pets',
      method: 'delete',
      headers: { authorization: `dpop  ${TOKEN}`, dpop: 'stale', DPOP: 'stale' },
    });
    assert.deepEqual(Object.keys(request.headers ?? {}), ['authorization', 'DPoP']);
    const { payload } = await proofOf(request);
    assert.equal(payload['htu'], 'http://api.test/api/pets', 'a relative URL, from the page');
    assert.equal(payload['htm'], 'DELETE');
  });

  it('names the method as fetch sends it', async () => {
    const page = inPage();
    const htm = async (method?: string) => {
      const request = dpopRequest(method === undefined ? {} : { method });
      if (method === undefined) delete request.method;
      return (await proofOf(await page.intercept(request))).payload['htm'];
    };
    assert.equal(await htm('post'), 'POST');
    assert.equal(await htm('patch'), 'patch', 'fetch upper-cases only six methods');
    assert.equal(await htm('PATCH'), 'PATCH');
    assert.equal(await htm(undefined), 'GET');
  });

  it("answers the next proofs with the server's DPoP-Nonce, per origin (§8, §9)", async () => {
    const page = inPage();
    const first = await page.intercept(dpopRequest());
    assert.equal((await proofOf(first)).payload['nonce'], undefined);
    const challenge = { status: 401, headers: { 'dpop-nonce': 'n-1' } };
    const seen = (first.responseInterceptor as (response: unknown) => unknown)(challenge);
    assert.equal(seen, challenge, 'without an interceptor before it, the response itself');
    const second = await page.intercept(dpopRequest());
    assert.equal((await proofOf(second)).payload['nonce'], 'n-1');
    const elsewhere = await page.intercept(dpopRequest({ url: 'https://api.test/api/pets' }));
    assert.equal((await proofOf(elsewhere)).payload['nonce'], undefined, 'another origin');
  });

  it('takes a nonce from fetch Headers too, and ignores what is not an RFC 9449 nonce', async () => {
    const page = inPage();
    const respond = async (response: unknown) => {
      const request = await page.intercept(dpopRequest());
      (request.responseInterceptor as (response: unknown) => unknown)(response);
    };
    const nonceNow = async () =>
      (await proofOf(await page.intercept(dpopRequest()))).payload['nonce'];
    await respond({ headers: new Headers({ 'DPoP-Nonce': 'from-headers' }) });
    assert.equal(await nonceNow(), 'from-headers');
    for (const bad of ['two, values', 'a"b', 'back\\slash', '', 'ü']) {
      await respond({ headers: { 'dpop-nonce': bad } });
      assert.equal(await nonceNow(), 'from-headers', JSON.stringify(bad));
    }
    await respond(undefined);
    await respond({});
    assert.equal(await nonceNow(), 'from-headers');
  });

  it('hands the response on to the interceptor set before it', async () => {
    const page = inPage();
    const replaced = { status: 200 };
    const request = await page.intercept(dpopRequest({ responseInterceptor: () => replaced }));
    const answer = (request.responseInterceptor as (response: unknown) => unknown)({});
    assert.equal(answer, replaced);
  });

  it('sends the request unsigned where the page has no WebCrypto (not a secure context)', async () => {
    const page = inPage({});
    const request = await page.intercept(dpopRequest());
    assert.deepEqual(request.headers, { Authorization: `DPoP ${TOKEN}` });
    await assert.rejects(page.state().key(), /secure context/);
  });

  it('sends the request unsigned when its URL cannot be read', async () => {
    const request = await inPage().intercept(dpopRequest({ url: 'http://[bad' }));
    assert.equal(request.headers?.['DPoP'], undefined);
  });

  it('is also callable in this process, where it reads the global page objects', async () => {
    const globals = globalThis as Record<string, unknown>;
    globals['window'] = { location: new URL(PAGE), crypto: globalThis.crypto };
    try {
      const request = await dpopRequestInterceptor()(dpopRequest());
      assert.equal(decodeProtectedHeader(request.headers?.['DPoP'] ?? '').typ, 'dpop+jwt');
    } finally {
      delete globals['window'];
    }
  });
});
