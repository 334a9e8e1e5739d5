// What the service logs at level info: every request line, and never a secret (contract §6).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import { loggerOptions } from '../../service/logging/log.js';
import {
  addApplication,
  addUser,
  basic,
  bearer,
  form,
  json,
  login,
  setCookies,
  startService,
  type Service,
} from './helpers.js';

/** The service with pino writing JSON lines into memory. */
async function logged(t: TestContext): Promise<{ service: Service; lines: () => string[] }> {
  let output = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      output += String(chunk);
      callback();
    },
  });
  const service = await startService(t, { logger: { ...loggerOptions('info'), stream } });
  return { service, lines: () => output.split('\n').filter((line) => line !== '') };
}

interface LogLine {
  msg?: string;
  req?: { method: string; url: string; headers: Record<string, unknown> };
}

describe('logs', () => {
  it('carry every request but none of the secrets sent or issued', async (t) => {
    const { service, lines } = await logged(t);
    const password = 'pa55-w0rd-never-logged';
    await addUser(service.store, 'alice', password);
    const { key } = await addApplication(service.store, 'Billing service');

    const tokenResponse = await service.fetch('/api/token', json({ username: 'alice', password }));
    const { token } = (await tokenResponse.json()) as { token: string };
    const loginResponse = await service.fetch(
      '/api/auth/login',
      json({ username: 'alice', password }),
    );
    const cookies = setCookies(loginResponse);
    const sessionid = cookies.get('sessionid')?.value ?? '';
    const csrftoken = cookies.get('csrftoken')?.value ?? '';
    const basicHeader = basic('alice', password).authorization!;
    const wrongPassword = 'wr0ng-pa55-never-logged';

    const requests: readonly [string, RequestInit, number][] = [
      ['/api/bearer', { headers: bearer(token) }, 200],
      ['/api/basic', { headers: { authorization: basicHeader } }, 200],
      ['/api/basic', { headers: basic('alice', wrongPassword) }, 401],
      ['/api/pets', { headers: { cookie: `sessionid=${sessionid}; csrftoken=${csrftoken}` } }, 200],
      ['/api/headerkey', { headers: { 'x-api-key': key } }, 200],
      ['/api/cookiekey', { headers: { cookie: `X-API-KEY=${key}` } }, 200],
      [`/api/apikey?api_key=${key}`, {}, 200],
      [`/api/apikey?other=1&api%5Fkey=${key}`, {}, 200],
      [`/api/multiple?key=${key}`, {}, 200],
      ['/api/multiple', { headers: { key } }, 200],
      [`/api/apikey?api_key=${key}&api_key=${key}`, {}, 400],
      ['/api/token', json({ username: 'alice', password: wrongPassword }), 400],
      [
        '/api/auth/logout',
        {
          method: 'POST',
          headers: {
            cookie: `sessionid=${sessionid}; csrftoken=${csrftoken}`,
            origin: service.config.publicOrigin,
            'content-type': 'application/x-www-form-urlencoded',
          },
          // In the form field: the X-CSRFToken header is the subject of its own test below.
          body: new URLSearchParams({ csrfmiddlewaretoken: csrftoken }).toString(),
        },
        204,
      ],
    ];
    for (const [path, init, status] of requests) {
      assert.equal((await service.fetch(path, init)).status, status, path);
    }

    const output = lines();
    const secrets = {
      password,
      wrongPassword,
      token,
      sessionid,
      csrftoken,
      key,
      basic: basicHeader.slice('Basic '.length),
    };
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(secret.length >= 16, name);
      const leaks = output.filter((line) => line.includes(secret));
      assert.deepEqual(leaks, [], `${name} appears in the log`);
    }

    const incoming = output
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.msg === 'incoming request');
    assert.equal(incoming.length, 2 + requests.length);
    const urls = incoming.map((line) => line.req?.url);
    assert.ok(urls.includes('/api/apikey?api_key=[REDACTED]'), urls.join(' '));
    assert.ok(urls.includes('/api/multiple?key=[REDACTED]'), urls.join(' '));
    assert.ok(urls.includes('/api/apikey?other=[REDACTED]&api%5Fkey=[REDACTED]'), urls.join(' '));
    const headers = incoming.map((line) => line.req?.headers ?? {});
    for (const name of ['authorization', 'cookie', 'x-api-key', 'key']) {
      assert.ok(
        headers.some((logged) => logged[name] === '[REDACTED]'),
        `${name} logged redacted`,
      );
    }
    assert.equal(
      output.filter((line) => line.includes('request completed')).length,
      incoming.length,
    );
  });

  it('do not carry a credential in a query parameter however its name is dressed', async (t) => {
    const { service, lines } = await logged(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const secret = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    for (const query of [
      `api_key[]=${key}`,
      `api_key[a]=${key}`,
      `api_key%5B%5D=${key}`,
      `API_KEY=${key}`,
      `key[0]=${key}`,
      `access_token=${secret}`,
      `access_token[]=${secret}`,
    ]) {
      await service.fetch(`/api/apikey?x=1&${query}`);
    }
    const output = lines();
    for (const value of [key, secret]) {
      assert.deepEqual(
        output.filter((line) => line.includes(value)),
        [],
      );
    }
    const urls = output
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.msg === 'incoming request')
      .map((line) => line.req?.url);
    assert.ok(urls.includes('/api/apikey?x=[REDACTED]&api_key[]=[REDACTED]'), urls.join(' '));
    assert.ok(urls.includes('/api/apikey?x=[REDACTED]&access_token=[REDACTED]'), urls.join(' '));
  });

  it('do not carry an API key sent to a route that does not exist', async (t) => {
    const { service, lines } = await logged(t);
    const { key } = await addApplication(service.store, 'Billing service');
    const response = await service.fetch(`/api/apikeys?api_key=${key}`);
    assert.equal(response.status, 404);
    assert.deepEqual(
      lines().filter((line) => line.includes(key)),
      [],
    );
  });

  it('do not carry a password from a sign-in body that fails validation', async (t) => {
    const { service, lines } = await logged(t);
    await addUser(service.store, 'alice', 'wonderland');
    const password = 'pa55-w0rd-never-logged';
    const bodies = [
      `{"username":"alice","password":"${password}",}`,
      JSON.stringify({ username: 'alice', password: password.repeat(60) }),
      JSON.stringify({ username: ['alice'], password }),
    ];
    for (const body of bodies) {
      await service.fetch('/api/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    }
    assert.deepEqual(
      lines().filter((line) => line.includes(password)),
      [],
    );
  });

  it('login with a session: nothing from Set-Cookie is logged', async (t) => {
    const { service, lines } = await logged(t);
    await addUser(service.store, 'alice', 'wonderland');
    const session = await login(service, 'alice', 'wonderland');
    assert.deepEqual(
      lines().filter(
        (line) => line.includes(session.sessionid) || line.includes(session.csrftoken),
      ),
      [],
    );
  });

  it('do not carry the CSRF token sent in X-CSRFToken', async (t) => {
    const { service, lines } = await logged(t);
    await addUser(service.store, 'alice', 'wonderland');
    const session = await login(service, 'alice', 'wonderland');
    const response = await service.fetch('/api/auth/logout', {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        origin: service.config.publicOrigin,
        'x-csrftoken': session.csrftoken,
      },
    });
    assert.equal(response.status, 204);
    assert.deepEqual(
      lines().filter((line) => line.includes(session.csrftoken)),
      [],
    );
  });
});

describe('logs of a sign-in with its password in the query string', () => {
  it('carry no query value, and the sign-in is refused 400', async (t) => {
    const { service, lines } = await logged(t);
    const password = 'pa55-w0rd-in-the-query';
    await addUser(service.store, 'alice', password);
    const query = `username=alice&password=${password}`;
    const attempts: readonly [string, RequestInit][] = [
      [`/api/token?${query}`, { method: 'POST' }],
      [`/api/token?${query}&grant_type=password`, form({ grant_type: 'password' })],
      [`/api/token?${query}`, form({ username: 'alice', password })],
      [`/api/auth/login?${query}`, form({ username: 'alice', password })],
      // Sent alone, as a bare name, or to a route that does not exist.
      [`/api/token?${password}`, form({ username: 'alice', password })],
      [`/api/tokens?client_secret=${password}`, { method: 'POST' }],
    ];
    for (const [path, init] of attempts) {
      const response = await service.fetch(path, init);
      assert.equal(response.status, path.startsWith('/api/tokens') ? 404 : 400, path);
      assert.deepEqual(response.headers.getSetCookie(), [], path);
    }
    const output = lines();
    assert.deepEqual(
      output.filter((line) => line.includes(password)),
      [],
    );
    const urls = output
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.msg === 'incoming request')
      .map((line) => line.req?.url);
    // The names stay: the log still says what was sent, and where.
    assert.ok(urls.includes('/api/token?username=[REDACTED]&password=[REDACTED]'), urls.join(' '));
    assert.ok(urls.includes('/api/token?[REDACTED]'), urls.join(' '));
    assert.ok(urls.includes('/api/tokens?client_secret=[REDACTED]'), urls.join(' '));
  });
});
