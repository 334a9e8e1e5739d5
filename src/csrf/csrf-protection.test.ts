import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSetCookie } from 'cookie';
import { APIKeyCookie } from '../api-key/api-key-cookie.js';
import { authenticate, type CsrfVerdict } from '../core/authenticate.js';
import { resolveAuth } from '../core/auth-spec.js';
import { errorCodes } from '../core/errors.js';
import type { HeaderMap, RequestView } from '../core/request.js';
import { HttpBearer } from '../http/http-bearer.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { SessionAuth } from '../session/session-auth.js';
import { createCsrfVerifier, type CsrfOptions } from './csrf-protection.js';
import { issueCsrfToken, verifyCsrfToken } from './csrf-token.js';

const SECRET = 'csrf test secret';
const ORIGIN = 'https://app.example.com';
const SESSION = 'session-1';
const csrf = createCsrfVerifier({ secret: SECRET, trustedOrigins: [ORIGIN] });
const TOKEN = csrf.issue(SESSION).token;
const OTHER = csrf.issue('session-2').token;

function request(headers: HeaderMap, rawHeaders?: string[]): RequestView {
  return {
    method: 'POST',
    url: '/things',
    headers,
    ...(rawHeaders === undefined ? {} : { raw: { rawHeaders } }),
  };
}

const sameOrigin = { 'sec-fetch-site': 'same-origin' };
const cookie = `csrftoken=${TOKEN}`;
/** The raw lines of a same-origin request with the cookie, and the lines given. */
const lines = (...more: string[]) => ['Sec-Fetch-Site', 'same-origin', 'Cookie', cookie, ...more];

describe('createCsrfVerifier: verify', () => {
  const cases: [string, RequestView, CsrfVerdict][] = [
    [
      'header token matching the cookie',
      request({ ...sameOrigin, cookie, 'x-csrftoken': TOKEN }),
      'pass',
    ],
    [
      'trusted Origin instead of Sec-Fetch-Site',
      request({ origin: ORIGIN, cookie, 'x-csrftoken': TOKEN }),
      'pass',
    ],
    [
      'trusted Referer',
      request({ referer: `${ORIGIN}/form`, cookie, 'x-csrftoken': TOKEN }),
      'pass',
    ],
    [
      'cookie among others',
      request({ ...sameOrigin, cookie: `a=1; ${cookie}; b=2`, 'x-csrftoken': TOKEN }),
      'pass',
    ],
    // Origin.
    [
      'cross-site request',
      request({ 'sec-fetch-site': 'cross-site', cookie, 'x-csrftoken': TOKEN }),
      'fail',
    ],
    [
      'same-site (a sibling subdomain) request',
      request({ 'sec-fetch-site': 'same-site', cookie, 'x-csrftoken': TOKEN }),
      'fail',
    ],
    [
      'untrusted Origin',
      request({ origin: 'https://evil.example', cookie, 'x-csrftoken': TOKEN }),
      'fail',
    ],
    ['no origin information', request({ cookie, 'x-csrftoken': TOKEN }), 'fail'],
    [
      'Host claiming to be the service',
      request({ host: 'app.example.com', cookie, 'x-csrftoken': TOKEN }),
      'fail',
    ],
    // Cookie.
    ['no cookie', request({ ...sameOrigin, 'x-csrftoken': TOKEN }), 'fail'],
    [
      'cookie without the token',
      request({ ...sameOrigin, cookie: 'sessionid=1', 'x-csrftoken': TOKEN }),
      'fail',
    ],
    [
      'empty cookie',
      request({ ...sameOrigin, cookie: 'csrftoken=', 'x-csrftoken': TOKEN }),
      'fail',
    ],
    [
      'cookie given twice (one planted for another path)',
      request({ ...sameOrigin, cookie: `${cookie}; csrftoken=${TOKEN}`, 'x-csrftoken': TOKEN }),
      'fail',
    ],
    // Header.
    [
      'header differing from the cookie',
      request({ ...sameOrigin, cookie, 'x-csrftoken': OTHER }),
      'fail',
    ],
    [
      'header and cookie agreeing on a token for another session',
      request({ ...sameOrigin, cookie: `csrftoken=${OTHER}`, 'x-csrftoken': OTHER }),
      'fail',
    ],
    [
      'header and cookie agreeing on garbage',
      request({ ...sameOrigin, cookie: 'csrftoken=x', 'x-csrftoken': 'x' }),
      'fail',
    ],
    [
      'token signed with another secret',
      (() => {
        const forged = issueCsrfToken('attacker secret', SESSION);
        return request({ ...sameOrigin, cookie: `csrftoken=${forged}`, 'x-csrftoken': forged });
      })(),
      'fail',
    ],
    [
      'header joined from two lines',
      request({ ...sameOrigin, cookie, 'x-csrftoken': `${TOKEN}, ${TOKEN}` }),
      'fail',
    ],
    [
      'header repeated as an array',
      request({ ...sameOrigin, cookie, 'x-csrftoken': [TOKEN, TOKEN] }),
      'fail',
    ],
    [
      'header repeated on the raw lines',
      request(
        { ...sameOrigin, cookie, 'x-csrftoken': `${TOKEN}, ${TOKEN}` },
        lines('X-CSRFToken', TOKEN, 'x-csrftoken', TOKEN),
      ),
      'fail',
    ],
    [
      'header once on the raw lines',
      request({ ...sameOrigin, cookie, 'x-csrftoken': TOKEN }, lines('X-CSRFToken', TOKEN)),
      'pass',
    ],
    // No header: form posts wait for the body.
    [
      'urlencoded form without the header',
      request({ ...sameOrigin, cookie, 'content-type': 'application/x-www-form-urlencoded' }),
      'defer',
    ],
    [
      'multipart form without the header',
      request({ ...sameOrigin, cookie, 'content-type': 'multipart/form-data; boundary=x' }),
      'defer',
    ],
    [
      'form type in another case, with parameters',
      request({
        ...sameOrigin,
        cookie,
        'content-type': ' Application/X-WWW-Form-Urlencoded ; charset=utf-8',
      }),
      'defer',
    ],
    [
      'form with the header uses the header',
      request({
        ...sameOrigin,
        cookie,
        'x-csrftoken': OTHER,
        'content-type': 'application/x-www-form-urlencoded',
      }),
      'fail',
    ],
    [
      'empty header on a form',
      request({
        ...sameOrigin,
        cookie,
        'x-csrftoken': '',
        'content-type': 'application/x-www-form-urlencoded',
      }),
      'defer',
    ],
    [
      'JSON without the header',
      request({ ...sameOrigin, cookie, 'content-type': 'application/json' }),
      'fail',
    ],
    [
      'text/plain without the header',
      request({ ...sameOrigin, cookie, 'content-type': 'text/plain' }),
      'fail',
    ],
    ['no content type and no header', request({ ...sameOrigin, cookie }), 'fail'],
    [
      'content type repeated',
      request({
        ...sameOrigin,
        cookie,
        'content-type': ['application/x-www-form-urlencoded', 'application/json'],
      }),
      'fail',
    ],
    [
      'form without the header but cross-site',
      request({
        'sec-fetch-site': 'cross-site',
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
      }),
      'fail',
    ],
    [
      'form without the header and without the cookie',
      request({ ...sameOrigin, 'content-type': 'multipart/form-data; boundary=x' }),
      'fail',
    ],
  ];
  for (const [name, req, expected] of cases) {
    it(`${expected}: ${name}`, () => {
      assert.equal(csrf.verify(req, SESSION), expected);
    });
  }

  it('binds the token to the binding it is checked against', () => {
    const req = request({ ...sameOrigin, cookie, 'x-csrftoken': TOKEN });
    assert.equal(csrf.verify(req, SESSION), 'pass');
    assert.equal(csrf.verify(req, 'session-2'), 'fail');
  });

  it('fails closed for an empty binding, even with a token issued for it', () => {
    const unbound = issueCsrfToken(SECRET, '');
    const req = request({ ...sameOrigin, cookie: `csrftoken=${unbound}`, 'x-csrftoken': unbound });
    assert.equal(csrf.verify(req, ''), 'fail');
    assert.equal(csrf.verifyForm(req, { csrfmiddlewaretoken: unbound }, ''), false);
    assert.throws(() => csrf.issue(''), { code: errorCodes.configuration });
  });

  it('never throws on hostile headers', () => {
    const hostile: HeaderMap[] = [
      { cookie: 'csrftoken=%E0%A4%A', 'x-csrftoken': '%E0%A4%A', ...sameOrigin },
      { cookie: ['csrftoken=a', 'csrftoken=b'], ...sameOrigin },
      { cookie: '=;;=;csrftoken', 'x-csrftoken': '\u0000', origin: 'http://[::1' },
      { referer: 'http://%zz', cookie, 'content-type': ';' },
    ];
    for (const headers of hostile) assert.equal(csrf.verify(request(headers), SESSION), 'fail');
  });
});

describe('createCsrfVerifier: verifyForm', () => {
  const form = request({
    ...sameOrigin,
    cookie,
    'content-type': 'application/x-www-form-urlencoded',
  });
  const cases: [string, RequestView, unknown, boolean][] = [
    ['field matching the cookie', form, { csrfmiddlewaretoken: TOKEN, name: 'x' }, true],
    [
      'a null-prototype body (as querystring.parse makes)',
      form,
      Object.assign(Object.create(null) as object, { csrfmiddlewaretoken: TOKEN }),
      true,
    ],
    ['field differing from the cookie', form, { csrfmiddlewaretoken: OTHER }, false],
    ['field missing', form, { name: 'x' }, false],
    ['field given twice', form, { csrfmiddlewaretoken: [TOKEN, TOKEN] }, false],
    ['field that is no string', form, { csrfmiddlewaretoken: 42 }, false],
    ['field inherited, not sent', form, Object.create({ csrfmiddlewaretoken: TOKEN }), false],
    ['no body', form, undefined, false],
    ['null body', form, null, false],
    ['string body', form, `csrfmiddlewaretoken=${TOKEN}`, false],
    [
      'body whose getter throws',
      form,
      Object.defineProperty({}, 'csrfmiddlewaretoken', {
        enumerable: true,
        get() {
          throw new Error('hostile');
        },
      }),
      false,
    ],
    [
      'proxy body that throws',
      form,
      new Proxy(
        {},
        {
          getOwnPropertyDescriptor() {
            throw new Error('hostile');
          },
        },
      ),
      false,
    ],
    [
      'no cookie',
      request({ ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded' }),
      { csrfmiddlewaretoken: TOKEN },
      false,
    ],
    [
      'cross-site',
      request({ 'sec-fetch-site': 'cross-site', cookie }),
      { csrfmiddlewaretoken: TOKEN },
      false,
    ],
  ];
  for (const [name, req, body, expected] of cases) {
    it(`${expected ? 'accepts' : 'refuses'} ${name}`, () => {
      assert.equal(csrf.verifyForm(req, body, SESSION), expected);
    });
  }

  it('binds the form token to the binding', () => {
    assert.equal(csrf.verifyForm(form, { csrfmiddlewaretoken: TOKEN }, 'session-2'), false);
  });
});

describe('createCsrfVerifier: allowsSignIn (login CSRF)', () => {
  const cases: [string, RequestView, boolean][] = [
    ['a client that says nothing of where it comes from', request({}), true],
    ['Sec-Fetch-Site same-origin', request({ 'sec-fetch-site': 'same-origin' }), true],
    ['Sec-Fetch-Site none (typed or bookmarked)', request({ 'sec-fetch-site': 'none' }), true],
    ['a trusted Origin', request({ origin: ORIGIN }), true],
    ['a trusted Referer', request({ referer: `${ORIGIN}/login` }), true],
    [
      'Sec-Fetch-Site cross-site',
      request({ 'sec-fetch-site': 'cross-site', origin: ORIGIN }),
      false,
    ],
    ['Sec-Fetch-Site same-site', request({ 'sec-fetch-site': 'same-site' }), false],
    ['a foreign Origin', request({ origin: 'https://evil.example' }), false],
    ['Origin: null', request({ origin: 'null' }), false],
    ['a foreign Referer', request({ referer: 'https://evil.example/' }), false],
    [
      'a repeated Origin',
      request({ origin: ORIGIN }, ['Origin', ORIGIN, 'Origin', 'https://evil.example']),
      false,
    ],
  ];
  for (const [name, input, allowed] of cases) {
    it(`${name} → ${allowed ? 'allowed' : 'refused'}`, () => {
      assert.equal(csrf.allowsSignIn(input), allowed);
    });
  }
});

describe('createCsrfVerifier: options', () => {
  it('issues a token valid for the binding, with its cookie (not HttpOnly)', () => {
    const { token, cookie: setCookie } = csrf.issue(SESSION);
    assert.equal(verifyCsrfToken(SECRET, token, SESSION), true);
    assert.equal(setCookie, `csrftoken=${token}; Path=/; SameSite=Lax`);
  });

  it('exposes the names the page needs', () => {
    assert.equal(csrf.cookieName, 'csrftoken');
    assert.equal(csrf.headerName, 'X-CSRFToken');
    assert.equal(csrf.formField, 'csrfmiddlewaretoken');
  });

  it('uses the configured names, cookie attributes and rotated secrets', () => {
    const custom = createCsrfVerifier({
      secret: ['new secret', 'old secret'],
      trustedOrigins: ['https://APP.example.com/'],
      cookieName: 'XSRF-TOKEN',
      headerName: 'X-XSRF-TOKEN',
      formField: '_csrf',
      cookie: { secure: true, sameSite: 'strict', path: '/app' },
    });
    const issued = custom.issue('key-1');
    assert.deepEqual(parseSetCookie(issued.cookie), {
      name: 'XSRF-TOKEN',
      value: issued.token,
      secure: true,
      sameSite: 'strict',
      path: '/app',
    });
    assert.equal(verifyCsrfToken('new secret', issued.token, 'key-1'), true);

    const old = issueCsrfToken('old secret', 'key-1');
    const headers = { origin: ORIGIN, cookie: `XSRF-TOKEN=${old}`, 'x-xsrf-token': old };
    assert.equal(custom.verify(request(headers), 'key-1'), 'pass');
    assert.equal(
      custom.verify(
        request({ ...headers, 'x-xsrf-token': undefined, 'x-csrftoken': old }),
        'key-1',
      ),
      'fail',
    );
    assert.equal(custom.verifyForm(request(headers), { _csrf: old }, 'key-1'), true);
    assert.equal(custom.verifyForm(request(headers), { csrfmiddlewaretoken: old }, 'key-1'), false);
  });

  const bad: [string, Partial<CsrfOptions>][] = [
    ['an empty secret', { secret: '' }],
    ['an empty secret list', { secret: [] }],
    ['a trusted origin with a path', { trustedOrigins: ['https://app.example.com/app'] }],
    ['a header name that is no token', { headerName: 'X CSRF' }],
    ['an empty header name', { headerName: '' }],
    ['an empty form field', { formField: '' }],
    ['a bad cookie name', { cookieName: 'csrf token' }],
    ['a bad cookie path', { cookie: { path: '/;x' } }],
  ];
  for (const [name, options] of bad) {
    it(`refuses ${name} at creation`, () => {
      assert.throws(
        () => createCsrfVerifier({ secret: SECRET, trustedOrigins: [ORIGIN], ...options }),
        { code: errorCodes.configuration },
      );
    });
  }
});

describe('createCsrfVerifier as the engine csrf option', () => {
  it('guards a session cookie, and lets a Bearer request through when the cookie fails', async () => {
    const store = new MemorySessionStore<string>();
    const sessionId = await store.create('alice');
    const { token } = csrf.issue(sessionId);
    const bearer = new HttpBearer({ authenticate: (_request, t) => (t === 'good' ? 'bot' : null) });
    const requirements = resolveAuth([new SessionAuth({ store }), bearer], 'POST /things')!;
    const options = { realm: 'api', csrf: csrf.verify };
    const session = `sessionid=${sessionId}; csrftoken=${token}`;

    const ok = await authenticate(
      requirements,
      request({ ...sameOrigin, cookie: session, 'x-csrftoken': token }),
      options,
    );
    assert.equal(ok.ok && ok.value, 'alice');

    const forged = await authenticate(
      requirements,
      request({ 'sec-fetch-site': 'cross-site', cookie: session, 'x-csrftoken': token }),
      options,
    );
    assert.ok(!forged.ok);
    assert.equal((forged.error as { code?: string }).code, errorCodes.csrf);

    const viaBearer = await authenticate(
      requirements,
      request({ 'sec-fetch-site': 'cross-site', cookie: session, authorization: 'Bearer good' }),
      options,
    );
    assert.equal(viaBearer.ok && viaBearer.value, 'bot');

    const form = await authenticate(
      requirements,
      request({
        ...sameOrigin,
        cookie: session,
        'content-type': 'application/x-www-form-urlencoded',
      }),
      options,
    );
    assert.equal(form.ok && form.csrfDeferred, sessionId);
  });

  it('binds an API-key cookie token to the key', async () => {
    const apiKey = new APIKeyCookie({ authenticate: (_request, key) => key === 'k1' || null });
    const requirements = resolveAuth(apiKey, 'POST /things')!;
    const forKey = csrf.issue('k1').token;
    const forOther = csrf.issue('k2').token;
    const verdict = async (t: string) =>
      (
        await authenticate(
          requirements,
          request({ ...sameOrigin, cookie: `key=k1; csrftoken=${t}`, 'x-csrftoken': t }),
          { realm: 'api', csrf: csrf.verify },
        )
      ).ok;
    assert.equal(await verdict(forKey), true);
    assert.equal(await verdict(forOther), false);
  });
});
