import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import {
  csrfRequestInterceptor,
  type InterceptedRequest,
  type RequestInterceptor,
} from './csrf-request-interceptor.js';

const PAGE = 'http://api.test/api/docs';

/**
 * Runs the interceptor the way the docs page does: its text, as Swagger UI writes it into the
 * initializer, evaluated in a fresh context that has only a page's `window` and `document`.
 */
function inPage(interceptor: RequestInterceptor, cookie: string): RequestInterceptor {
  const window = { location: new URL(PAGE) };
  return runInNewContext(`(${String(interceptor)})`, {
    window,
    document: { cookie },
    URL,
  }) as RequestInterceptor;
}

function run(
  request: InterceptedRequest,
  cookie = 'sessionid=s; csrftoken=tok123',
  interceptor = csrfRequestInterceptor(),
): InterceptedRequest {
  const result = inPage(interceptor, cookie)(request);
  // Objects made in the page's context have its prototypes; copy them into this one to compare.
  return result.headers === undefined ? result : { ...result, headers: { ...result.headers } };
}

describe('csrfRequestInterceptor (contract §8)', () => {
  it('is plain ES5 text that names nothing from the server', () => {
    const text = String(csrfRequestInterceptor());
    assert.match(text, /^function vouchCsrfInterceptor\(request\) \{/);
    assert.match(text, /"csrftoken"/);
    assert.match(text, /\["X-CSRFToken"\]/);
    assert.doesNotMatch(text, /=>|\blet\b|\bconst\b|`/);
  });

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post', 'PROPFIND']) {
    it(`adds X-CSRFToken from the csrftoken cookie to ${method}`, () => {
      const request = run({ url: `${PAGE}/../pets`, method, headers: { accept: 'x' } });
      assert.deepEqual(request.headers, { accept: 'x', 'X-CSRFToken': 'tok123' });
    });
  }

  for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE', undefined]) {
    it(`leaves ${method ?? 'a request without method'} alone`, () => {
      const request = run({ url: '/api/pets', ...(method === undefined ? {} : { method }) });
      assert.equal(request.headers, undefined);
    });
  }

  it('creates the headers object when the request has none, for a relative URL', () => {
    assert.deepEqual(run({ url: '/api/pets', method: 'POST' }).headers, {
      'X-CSRFToken': 'tok123',
    });
  });

  it('never sends the token to another origin', () => {
    assert.equal(run({ url: 'http://evil.test/api/pets', method: 'POST' }).headers, undefined);
    assert.equal(run({ url: 'https://api.test/api/pets', method: 'POST' }).headers, undefined);
  });

  it('leaves a request with an unparsable URL alone', () => {
    assert.equal(run({ url: 'http://[bad', method: 'POST' }).headers, undefined);
  });

  it('sends nothing without the cookie, or with an empty one', () => {
    assert.equal(run({ url: '/x', method: 'POST' }, '').headers, undefined);
    assert.equal(
      run({ url: '/x', method: 'POST' }, 'other=1; csrftokenx=2; bad').headers,
      undefined,
    );
    assert.equal(run({ url: '/x', method: 'POST' }, 'csrftoken=').headers, undefined);
  });

  it('percent-decodes the cookie value when it decodes, and keeps it as sent otherwise', () => {
    assert.deepEqual(run({ url: '/x', method: 'POST' }, 'csrftoken=a%2Bb').headers, {
      'X-CSRFToken': 'a+b',
    });
    assert.deepEqual(run({ url: '/x', method: 'POST' }, 'csrftoken=a%zz').headers, {
      'X-CSRFToken': 'a%zz',
    });
  });

  it('follows the configured cookie and header names', () => {
    const interceptor = csrfRequestInterceptor({ cookieName: 'my"csrf', headerName: 'X-My-Token' });
    assert.deepEqual(run({ url: '/x', method: 'POST' }, 'my"csrf=v', interceptor).headers, {
      'X-My-Token': 'v',
    });
  });

  it('is also callable in this process, where it reads the global page objects', () => {
    const globals = globalThis as Record<string, unknown>;
    globals['window'] = { location: new URL(PAGE) };
    globals['document'] = { cookie: 'csrftoken=here' };
    try {
      assert.deepEqual(csrfRequestInterceptor()({ url: '/x', method: 'POST' }).headers, {
        'X-CSRFToken': 'here',
      });
    } finally {
      delete globals['window'];
      delete globals['document'];
    }
  });
});
