// POST /api/auth/login, GET /api/pets and POST /api/auth/logout: server-side sessions, their
// cookies, rotation, timeouts and the CSRF check on logout.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import {
  addUser,
  bearer,
  form,
  getToken,
  json,
  login,
  manualClock,
  setCookies,
  startService,
  type Service,
  type Session,
  type StartOptions,
} from './helpers.js';

async function withAlice(t: TestContext, options: StartOptions = {}): Promise<Service> {
  const service = await startService(t, options);
  await addUser(service.store, 'alice', 'wonderland');
  return service;
}

function pets(service: Service, cookie?: string): Promise<Response> {
  return service.fetch('/api/pets', cookie === undefined ? {} : { headers: { cookie } });
}

function logout(service: Service, headers: Record<string, string>): Promise<Response> {
  return service.fetch('/api/auth/logout', { method: 'POST', headers });
}

/** The headers a same-origin page sends to log out. */
function sameOrigin(service: Service, session: Session): Record<string, string> {
  return {
    cookie: session.cookie,
    origin: service.config.publicOrigin,
    'x-csrftoken': session.csrftoken,
  };
}

describe('POST /api/auth/login', () => {
  for (const [kind, body] of [
    ['form-encoded', form],
    ['JSON', json],
  ] as const) {
    it(`sets the sessionid and csrftoken cookies from a ${kind} body`, async (t) => {
      const service = await withAlice(t);
      const response = await service.fetch(
        '/api/auth/login',
        body({ username: 'alice', password: 'wonderland' }),
      );
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { username: 'alice' });
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const cookies = setCookies(response);
      const session = cookies.get('sessionid');
      const csrf = cookies.get('csrftoken');
      assert.ok(session !== undefined && csrf !== undefined);
      assert.match(session.value, /^[A-Za-z0-9_-]{43}$/);
      assert.ok(csrf.value.length > 0);
      const attributes = session.line.split(';').map((part) => part.trim().toLowerCase());
      for (const attribute of ['httponly', 'samesite=lax', 'path=/']) {
        assert.ok(attributes.includes(attribute), `${attribute} in ${session.line}`);
      }
      assert.ok(!attributes.includes('secure'), 'no Secure over plain http');
      // The page's script reads the CSRF cookie, so it must not be HttpOnly.
      assert.doesNotMatch(csrf.line, /HttpOnly/i);
    });
  }

  it('refuses a sign-in from another site (login CSRF), allows the service and non-browsers', async (t) => {
    const service = await withAlice(t);
    const attempt = (headers: Record<string, string>) => {
      const init = form({ username: 'alice', password: 'wonderland' });
      return service.fetch('/api/auth/login', {
        ...init,
        headers: { ...(init.headers as Record<string, string>), ...headers },
      });
    };
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page' },
    ]) {
      const refused = await attempt(headers);
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.deepEqual(await refused.json(), { detail: 'CSRF check Failed' });
      assert.deepEqual(refused.headers.getSetCookie(), [], 'no session is planted');
    }
    for (const headers of [
      {},
      { 'sec-fetch-site': 'same-origin', origin: service.config.publicOrigin },
      { origin: service.config.publicOrigin },
    ]) {
      assert.equal((await attempt(headers)).status, 200, JSON.stringify(headers));
    }
  });

  it('marks the cookies Secure when the public origin is https', async (t) => {
    const service = await withAlice(t, { env: { PUBLIC_ORIGIN: 'https://vouch.example' } });
    const response = await service.fetch(
      '/api/auth/login',
      form({ username: 'alice', password: 'wonderland' }),
    );
    assert.equal(response.status, 200);
    for (const [name, cookie] of setCookies(response)) {
      assert.match(cookie.line, /;\s*Secure/i, name);
    }
  });

  it('answers 400 with the generic message for a wrong password, and sets no cookie', async (t) => {
    const service = await withAlice(t);
    const response = await service.fetch(
      '/api/auth/login',
      form({ username: 'alice', password: 'wonderlant' }),
    );
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { detail: 'Incorrect username or password' });
    assert.deepEqual(response.headers.getSetCookie(), []);
  });

  it('gives a new session id at every login and kills the one the browser held', async (t) => {
    const service = await withAlice(t);
    const first = await login(service, 'alice', 'wonderland');
    assert.equal((await pets(service, first.cookie)).status, 200);
    const second = await login(service, 'alice', 'wonderland', { cookie: first.cookie });
    assert.notEqual(second.sessionid, first.sessionid);
    assert.notEqual(second.csrftoken, first.csrftoken);
    assert.equal((await pets(service, first.cookie)).status, 401);
    assert.equal((await pets(service, second.cookie)).status, 200);
  });
});

describe('GET /api/pets', () => {
  it('answers text containing the username, Cache-Control private, with the cookie', async (t) => {
    const service = await withAlice(t);
    const session = await login(service, 'alice', 'wonderland');
    const response = await pets(service, `sessionid=${session.sessionid}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'private');
    assert.match(await response.text(), /alice/);
  });

  const refused: readonly [string, string | undefined][] = [
    ['no cookie', undefined],
    ['an unknown session id', 'sessionid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['an empty session id', 'sessionid='],
    ['only the csrftoken cookie', 'csrftoken=abc'],
  ];
  for (const [name, cookie] of refused) {
    it(`answers 401 {"detail":"Unauthorized"} for ${name}`, async (t) => {
      const service = await withAlice(t);
      await login(service, 'alice', 'wonderland');
      const response = await pets(service, cookie);
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
      assert.equal(response.headers.get('cache-control'), null);
    });
  }

  it('answers 401 to the session id quoted or percent-encoded: cookies are read as sent', async (t) => {
    const service = await withAlice(t);
    const { sessionid } = await login(service, 'alice', 'wonderland');
    const encoded = `%${sessionid.charCodeAt(0).toString(16).toUpperCase()}${sessionid.slice(1)}`;
    for (const cookie of [`sessionid="${sessionid}"`, `sessionid=${encoded}`]) {
      const response = await pets(service, cookie);
      assert.equal(response.status, 401, cookie);
    }
    assert.equal((await pets(service, `sessionid=${sessionid}`)).status, 200);
  });

  it('does not accept a Bearer token (the operation overrides the API-wide auth)', async (t) => {
    const service = await withAlice(t);
    const token = await getToken(service, 'alice', 'wonderland');
    assert.equal((await service.fetch('/api/pets', { headers: bearer(token) })).status, 401);
  });

  it('ends a session unused for SESSION_IDLE_SECONDS', async (t) => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const service = await withAlice(t, {
      now: clock.now,
      env: { SESSION_IDLE_SECONDS: '60', SESSION_ABSOLUTE_SECONDS: '3600' },
    });
    const session = await login(service, 'alice', 'wonderland');
    // Used just within the idle timeout, twice: each use restarts the idle clock.
    clock.advance(59_000);
    assert.equal((await pets(service, session.cookie)).status, 200);
    clock.advance(59_000);
    assert.equal((await pets(service, session.cookie)).status, 200);
    clock.advance(60_000);
    assert.equal((await pets(service, session.cookie)).status, 401);
    // Dead for good: coming back to an earlier time does not revive it.
    clock.advance(-60_000);
    assert.equal((await pets(service, session.cookie)).status, 401);
  });

  it('ends a busy session after SESSION_ABSOLUTE_SECONDS', async (t) => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const service = await withAlice(t, {
      now: clock.now,
      env: { SESSION_IDLE_SECONDS: '60', SESSION_ABSOLUTE_SECONDS: '120' },
    });
    const session = await login(service, 'alice', 'wonderland');
    clock.advance(50_000);
    assert.equal((await pets(service, session.cookie)).status, 200);
    clock.advance(50_000);
    assert.equal((await pets(service, session.cookie)).status, 200);
    clock.advance(20_000);
    assert.equal((await pets(service, session.cookie)).status, 401);
  });
});

describe('POST /api/auth/logout', () => {
  it('answers 204 with the cookies, the origin and X-CSRFToken; the session is dead after', async (t) => {
    const service = await withAlice(t);
    const session = await login(service, 'alice', 'wonderland');
    const response = await logout(service, sameOrigin(service, session));
    assert.equal(response.status, 204);
    assert.equal(await response.text(), '');
    const cleared = setCookies(response);
    assert.equal(cleared.get('sessionid')?.value, '');
    assert.match(cleared.get('sessionid')?.line ?? '', /Max-Age=0/i);
    assert.equal(cleared.get('csrftoken')?.value, '');

    assert.equal((await pets(service, session.cookie)).status, 401);
    assert.equal((await logout(service, sameOrigin(service, session))).status, 401);
  });

  it('accepts the CSRF token in the csrfmiddlewaretoken form field', async (t) => {
    const service = await withAlice(t);
    const session = await login(service, 'alice', 'wonderland');
    const response = await service.fetch('/api/auth/logout', {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        origin: service.config.publicOrigin,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ csrfmiddlewaretoken: session.csrftoken }).toString(),
    });
    assert.equal(response.status, 204);
    assert.equal((await pets(service, session.cookie)).status, 401);
  });

  const forged: readonly [
    string,
    (service: Service, session: Session) => Record<string, string>,
  ][] = [
    [
      'without X-CSRFToken',
      (service, session) => ({
        cookie: session.cookie,
        origin: service.config.publicOrigin,
      }),
    ],
    [
      'with a cross-site Origin',
      (_service, session) => ({
        cookie: session.cookie,
        origin: 'https://evil.example',
        'x-csrftoken': session.csrftoken,
      }),
    ],
    [
      'with Sec-Fetch-Site: cross-site',
      (service, session) => ({
        ...sameOrigin(service, session),
        'sec-fetch-site': 'cross-site',
      }),
    ],
    [
      'with neither Origin nor Referer',
      (_service, session) => ({
        cookie: session.cookie,
        'x-csrftoken': session.csrftoken,
      }),
    ],
    [
      'with an X-CSRFToken that does not match the cookie',
      (service, session) => ({
        ...sameOrigin(service, session),
        'x-csrftoken': `${session.csrftoken.slice(0, -1)}${session.csrftoken.endsWith('A') ? 'B' : 'A'}`,
      }),
    ],
  ];
  for (const [name, headers] of forged) {
    it(`answers 403 {"detail":"CSRF check Failed"} ${name}, and the session lives on`, async (t) => {
      const service = await withAlice(t);
      const session = await login(service, 'alice', 'wonderland');
      const response = await logout(service, headers(service, session));
      assert.equal(response.status, 403);
      assert.deepEqual(await response.json(), { detail: 'CSRF check Failed' });
      assert.equal((await pets(service, session.cookie)).status, 200);
    });
  }

  it("answers 403 for another session's CSRF token and cookie", async (t) => {
    const service = await withAlice(t);
    await addUser(service.store, 'bob', 'bobpassword');
    const alice = await login(service, 'alice', 'wonderland');
    const bob = await login(service, 'bob', 'bobpassword');
    const response = await logout(service, {
      cookie: `sessionid=${alice.sessionid}; csrftoken=${bob.csrftoken}`,
      origin: service.config.publicOrigin,
      'x-csrftoken': bob.csrftoken,
    });
    assert.equal(response.status, 403);
    assert.equal((await pets(service, alice.cookie)).status, 200);
  });

  it('answers 401 to a Bearer token alone: logout needs the session', async (t) => {
    const service = await withAlice(t);
    const token = await getToken(service, 'alice', 'wonderland');
    const response = await logout(service, {
      ...bearer(token),
      origin: service.config.publicOrigin,
    });
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
  });
});
