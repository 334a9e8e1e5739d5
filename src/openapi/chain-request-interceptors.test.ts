import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { jwtVerify, EmbeddedJWK } from 'jose';
import { chainRequestInterceptorsSource } from './chain-interceptors-source.js';
import { chainRequestInterceptors } from './chain-request-interceptors.js';
import { csrfRequestInterceptorSource } from './csrf-interceptor-source.js';
import type { AsyncRequestInterceptor, InterceptedRequest } from './csrf-request-interceptor.js';
import { dpopRequestInterceptorSource } from './dpop-interceptor-source.js';

/** Steps that record their order in a header; `later` answers with a promise. */
const steps = {
  first: `function (request) { request.headers = request.headers || {}; request.headers.order = 'first'; }`,
  second: `function second(request) { return Object.assign({}, request, { headers: { order: request.headers.order + ',second' } }); }`,
  later: `function (request) { return Promise.resolve(Object.assign({}, request, { headers: { order: request.headers.order + ',later' } })); }`,
  nothingLater: `function (request) { return Promise.resolve(undefined); }`,
};

function chain(...sources: string[]): AsyncRequestInterceptor {
  return runInNewContext(`(${chainRequestInterceptorsSource(...sources)})`, {
    Promise,
  }) as AsyncRequestInterceptor;
}

describe('chainRequestInterceptors', () => {
  it('runs each on what the one before returned, at once while they answer at once', () => {
    const answer = chain(steps.first, steps.second)({ url: '/x' });
    assert.equal(typeof (answer as { then?: unknown }).then, 'undefined');
    assert.equal((answer as InterceptedRequest).headers?.['order'], 'first,second');
  });

  it('waits for a step that answers with a promise, then runs the rest', async () => {
    const answer = chain(steps.first, steps.later, steps.second, steps.nothingLater)({ url: '/x' });
    assert.equal(typeof (answer as { then?: unknown }).then, 'function');
    assert.equal((await answer).headers?.['order'], 'first,later,second');
  });

  it('is the request itself with no step', () => {
    const request = { url: '/x' };
    assert.equal(chain()(request), request);
  });

  it('composes the CSRF and DPoP interceptors of the docs page', async () => {
    const window = { location: new URL('http://api.test/api/docs'), crypto: globalThis.crypto };
    const source = chainRequestInterceptorsSource(
      csrfRequestInterceptorSource(),
      dpopRequestInterceptorSource(),
    );
    const intercept = runInNewContext(`(${source})`, {
      window,
      document: { cookie: 'csrftoken=c-1' },
      URL,
      TextEncoder,
      btoa,
    }) as AsyncRequestInterceptor;
    const request = await intercept({
      url: 'http://api.test/api/pets',
      method: 'POST',
      headers: { Authorization: 'DPoP tok' },
    });
    assert.deepEqual(Object.keys(request.headers ?? {}), ['Authorization', 'X-CSRFToken', 'DPoP']);
    const { payload } = await jwtVerify(request.headers?.['DPoP'] ?? '', EmbeddedJWK);
    assert.equal(payload['htm'], 'POST');
  });

  it('compiles functions in this process from their text', () => {
    const upper: AsyncRequestInterceptor = function (request) {
      return { ...request, url: request.url.toUpperCase() };
    };
    const answer = chainRequestInterceptors(upper, (request) => ({ ...request, method: 'PUT' }))({
      url: '/x',
    }) as InterceptedRequest;
    assert.deepEqual(answer, { url: '/X', method: 'PUT' });
  });
});
