// POST /api/token as the OAuth2 password grant (RFC 6749 §4.3) over the real service and a real
// SQLite file: the form Swagger UI's Authorize sends, its answer, and its errors (§5.2).
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { describe, it } from 'node:test';
import { hashGate } from '../../service/security/hash-gate.js';
import { createFailureLimiter } from '../../service/security/rate-limit.js';
import { sendRaw } from '../helpers/raw-http.js';
import {
  addUser,
  basic,
  bearer,
  form,
  json,
  startService,
  type Service,
  type StartOptions,
} from './helpers.js';

async function withAlice(
  t: Parameters<typeof startService>[0],
  options: StartOptions = {},
): Promise<Service> {
  const service = await startService(t, options);
  await addUser(service.store, 'alice', 'wonderland');
  await service.store.grantUserScope('alice', 'admin');
  await service.store.grantUserScope('alice', 'pets:read');
  return service;
}

async function grant(
  service: Service,
  fields: Record<string, string>,
  asJson = false,
  headers: Record<string, string> = {},
) {
  const init = asJson ? json(fields) : form(fields);
  return answerOf(
    await service.fetch('/api/token', {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...headers },
    }),
  );
}

/** POST /api/token with a body sent as written (a form field or a JSON key given twice). */
async function grantRaw(service: Service, type: string, body: string, path = '/api/token') {
  return answerOf(
    await service.fetch(path, { method: 'POST', headers: { 'content-type': type }, body }),
  );
}

async function answerOf(response: Response) {
  return {
    status: response.status,
    cacheControl: response.headers.get('cache-control'),
    pragma: response.headers.get('pragma'),
    retryAfter: response.headers.get('retry-after'),
    challenge: response.headers.get('www-authenticate'),
    cookies: response.headers.getSetCookie(),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const ALICE = { grant_type: 'password', username: 'alice', password: 'wonderland' };

describe('POST /api/token, the OAuth2 password grant', () => {
  it('issues a Bearer token with the scopes asked for, never cached', async (t) => {
    const service = await withAlice(t);
    const answer = await grant(service, { ...ALICE, scope: 'admin', client_id: '' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, 'bearer');
    assert.equal(answer.body.scope, 'admin');
    assert.equal(typeof answer.body.expires_in, 'number');
    assert.equal(answer.cacheControl, 'no-store');
    assert.equal(answer.pragma, 'no-cache');
    const token = String(answer.body.access_token);
    const users = await service.fetch('/api/admin/users', { headers: bearer(token) });
    assert.deepEqual(await users.json(), { users: ['alice'] });
  });

  for (const asJson of [false, true]) {
    it(`answers its errors as RFC 6749 §5.2 says (${asJson ? 'JSON' : 'form'})`, async (t) => {
      const service = await withAlice(t);
      const cases: [Record<string, string>, Record<string, unknown>][] = [
        [
          { ...ALICE, password: 'nope-nope' },
          { error: 'invalid_grant', error_description: 'Incorrect username or password' },
        ],
        [
          { ...ALICE, username: 'nobody' },
          { error: 'invalid_grant', error_description: 'Incorrect username or password' },
        ],
        [
          { ...ALICE, scope: 'pets:write' },
          {
            error: 'invalid_scope',
            error_description: 'The requested scope is malformed or not granted to this user',
          },
        ],
        [{ ...ALICE, grant_type: 'client_credentials' }, { error: 'unsupported_grant_type' }],
      ];
      for (const [fields, body] of cases) {
        const answer = await grant(service, fields, asJson);
        assert.equal(answer.status, 400, JSON.stringify(fields));
        assert.deepEqual(answer.body, body, JSON.stringify(fields));
        assert.equal(answer.cacheControl, 'no-store');
      }
      const missing = await grant(service, { grant_type: 'password', username: 'alice' }, asJson);
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, 'invalid_request');
      assert.match(String(missing.body.error_description), /password/);
    });
  }

  it('keeps the plain form answering { detail }, a malformed one included', async (t) => {
    const service = await withAlice(t);
    const wrong = await grant(service, { username: 'alice', password: 'nope-nope' });
    assert.deepEqual(wrong.body, { detail: 'Incorrect username or password' });
    const missing = await grant(service, { username: 'alice' });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body), ['detail']);
    assert.match(String(missing.body.detail), /password/);
  });

  it('costs a refused token one store lookup, though two schemes read it', async (t) => {
    const service = await withAlice(t);
    const { store } = service;
    const findToken = store.findToken.bind(store);
    let lookups = 0;
    store.findToken = (...args) => {
      lookups++;
      return findToken(...args);
    };
    const refused = await service.fetch('/api/bearer', { headers: bearer('not-a-real-token') });
    assert.equal(refused.status, 401);
    assert.equal(lookups, 1);
    const token = String((await grant(service, ALICE)).body.access_token);
    const accepted = await service.fetch('/api/bearer', { headers: bearer(token) });
    assert.deepEqual(await accepted.json(), { token });
  });

  describe('RFC 6749 §2.3 and §5.2: client authentication, with no client registered', () => {
    const INVALID_CLIENT = 'invalid_client';
    const BASIC_CHALLENGE = 'Basic realm="api", charset="UTF-8"';

    it('answers 401 invalid_client with a Basic challenge to client credentials in Basic', async (t) => {
      const service = await withAlice(t);
      for (const authorization of [
        basic('my-app', 'app-secret').authorization!,
        basic('my-app', '').authorization!,
        `Basic ${Buffer.from(':app-secret').toString('base64')}`,
        'basic bm90IGJhc2U2NA',
        'Basic',
      ]) {
        for (const asJson of [false, true]) {
          const answer = await grant(service, ALICE, asJson, { authorization });
          assert.equal(answer.status, 401, authorization);
          assert.equal(answer.body.error, INVALID_CLIENT, authorization);
          assert.equal(typeof answer.body.error_description, 'string');
          assert.equal(answer.challenge, BASIC_CHALLENGE, authorization);
          assert.deepEqual(answer.cookies, [], 'no token, no device cookie');
          assert.equal(answer.cacheControl, 'no-store');
        }
      }
    });

    it('answers 401 invalid_client to client credentials or a client_id in the body', async (t) => {
      const service = await withAlice(t);
      for (const client of [
        { client_id: 'my-app', client_secret: 'app-secret' },
        { client_secret: 'app-secret' },
        // A public client (§2.1) names itself with client_id alone: none is registered here, so
        // it is an unknown client (§5.2), never silently taken for no client at all.
        { client_id: 'my-app' },
        { client_id: 'my-app', client_secret: '' },
      ]) {
        for (const asJson of [false, true]) {
          const answer = await grant(service, { ...ALICE, ...client }, asJson);
          assert.equal(answer.status, 401, JSON.stringify(client));
          assert.equal(answer.body.error, INVALID_CLIENT);
          // No Authorization header was used: no challenge to send (§5.2).
          assert.equal(answer.challenge, null);
          assert.deepEqual(answer.cookies, []);
        }
      }
    });

    it('refuses client authentication in the plain form too, answering { detail }', async (t) => {
      const service = await withAlice(t);
      const plain = { username: 'alice', password: 'wonderland' };
      const viaBasic = await grant(service, plain, false, basic('my-app', 'app-secret'));
      assert.equal(viaBasic.status, 401);
      assert.deepEqual(Object.keys(viaBasic.body), ['detail']);
      assert.equal(viaBasic.challenge, BASIC_CHALLENGE);
      const viaBody = await grant(service, { ...plain, client_id: 'my-app' }, true);
      assert.equal(viaBody.status, 401);
      assert.deepEqual(Object.keys(viaBody.body), ['detail']);
      assert.equal(viaBody.challenge, null);
    });

    it('takes empty client fields and the docs page’s empty Basic pair as no client', async (t) => {
      const service = await withAlice(t);
      // Swagger UI's Authorize sends `Authorization: Basic base64(":")` when its client fields
      // are left empty, as they are on the docs page.
      for (const [fields, headers] of [
        [{ ...ALICE, client_id: '', client_secret: '' }, {}],
        [ALICE, { authorization: `Basic ${Buffer.from(':').toString('base64')}` }],
        [ALICE, { authorization: 'Bearer not-a-client-credential' }],
      ] as const) {
        const answer = await grant(service, fields, false, headers);
        assert.equal(answer.status, 200, JSON.stringify([fields, headers]));
      }
    });

    it('refuses two Authorization lines as invalid_request', async (t) => {
      const service = await withAlice(t);
      const body = new URLSearchParams(ALICE).toString();
      // fetch joins two lines into one; only a raw request sends them apart.
      const answer = await sendRaw(
        Number(new URL(service.base).port),
        'POST /api/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
          'Content-Type: application/x-www-form-urlencoded\r\n' +
          'Authorization: Bearer a\r\n' +
          `Authorization: ${basic('my-app', 'app-secret').authorization!}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      assert.equal(answer.status, 400);
      assert.equal((JSON.parse(answer.body) as { error?: string }).error, 'invalid_request');
    });
  });

  describe('RFC 6749 §3.2: parameters are not repeated, and travel in the body', () => {
    it('answers invalid_request to grant_type given twice in a form', async (t) => {
      const service = await withAlice(t);
      for (const body of [
        'grant_type=password&grant_type=password&username=alice&password=wonderland',
        'grant_type=password&grant_type=client_credentials&username=alice&password=wonderland',
        'grant_type=&grant_type=password&username=alice&password=wonderland',
      ]) {
        const answer = await grantRaw(service, 'application/x-www-form-urlencoded', body);
        assert.equal(answer.status, 400, body);
        assert.equal(answer.body.error, 'invalid_request', body);
        assert.equal(answer.body.detail, undefined);
        assert.deepEqual(answer.cookies, []);
      }
    });

    it('refuses a JSON key given twice, like a form field given twice', async (t) => {
      const service = await withAlice(t);
      const grantBodies = [
        '{"grant_type":"password","username":"alice","password":"nope","password":"wonderland"}',
        '{"grant_type":"password","grant_type":"password","username":"alice","password":"wonderland"}',
        '{"grant_type":"password","username":"alice","password":"wonderland","grant_type":""}',
        // The same key however it is escaped.
        '{"grant_type":"password","username":"alice","password":"wonderland","passwor\\u0064":"x"}',
      ];
      for (const body of grantBodies) {
        const answer = await grantRaw(service, 'application/json', body);
        assert.equal(answer.status, 400, body);
        assert.equal(answer.body.error, 'invalid_request', body);
        assert.deepEqual(answer.cookies, []);
      }
      // The plain form, and the login route: the service's JSON bodies are read alike.
      for (const path of ['/api/token', '/api/auth/login']) {
        const answer = await grantRaw(
          service,
          'application/json',
          '{"username":"mallory","username":"alice","password":"wonderland"}',
          path,
        );
        assert.equal(answer.status, 400, path);
        assert.deepEqual(Object.keys(answer.body), ['detail'], path);
        assert.deepEqual(answer.cookies, [], path);
      }
    });

    it('refuses a password in the query string, in either form', async (t) => {
      const service = await withAlice(t);
      const query = '?username=alice&password=wonderland';
      const grantAnswer = await answerOf(
        await service.fetch(`/api/token${query}`, form({ grant_type: 'password' })),
      );
      assert.equal(grantAnswer.status, 400);
      assert.equal(grantAnswer.body.error, 'invalid_request');
      for (const [path, init] of [
        ['/api/token', form({ username: 'alice', password: 'wonderland' })],
        ['/api/token', { method: 'POST' }],
        ['/api/auth/login', form({ username: 'alice', password: 'wonderland' })],
      ] as const) {
        const answer = await answerOf(await service.fetch(`${path}${query}`, init));
        assert.equal(answer.status, 400, path);
        assert.deepEqual(Object.keys(answer.body), ['detail'], path);
        assert.deepEqual(answer.cookies, [], path);
      }
    });
  });

  describe('RFC 6749 §5.2: the grant answers "try later" with an error too', () => {
    it('answers a lockout 429 temporarily_unavailable, with Retry-After', async (t) => {
      const limiter = createFailureLimiter({
        perUsernameAndAddress: { attempts: 1, windowSeconds: 60 },
      });
      const service = await withAlice(t, { limiter });
      assert.equal((await grant(service, { ...ALICE, password: 'guess' })).status, 400);
      for (const asJson of [false, true]) {
        const answer = await grant(service, ALICE, asJson);
        assert.equal(answer.status, 429);
        assert.equal(answer.body.error, 'temporarily_unavailable');
        assert.equal(typeof answer.body.error_description, 'string');
        assert.equal(answer.body.detail, undefined);
        const retryAfter = Number(answer.retryAfter);
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60);
        assert.equal(answer.cacheControl, 'no-store');
      }
      // The plain form keeps its answer.
      const plain = await grant(service, { username: 'alice', password: 'wonderland' });
      assert.equal(plain.status, 429);
      assert.deepEqual(plain.body, { detail: 'Too Many Requests' });
    });

    it('answers 503 temporarily_unavailable while every password check is taken', async (t) => {
      const gate = hashGate({ concurrency: 1, queue: 0 });
      const service = await withAlice(t, { hashGate: gate });
      let release = () => {};
      const held = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
      try {
        for (const asJson of [false, true]) {
          const answer = await grant(service, ALICE, asJson);
          assert.equal(answer.status, 503);
          assert.equal(answer.body.error, 'temporarily_unavailable');
          assert.equal(typeof answer.body.error_description, 'string');
          assert.equal(answer.retryAfter, '1');
          assert.equal(answer.cacheControl, 'no-store');
        }
        const plain = await grant(service, { username: 'alice', password: 'wonderland' });
        assert.equal(plain.status, 503);
        assert.deepEqual(plain.body, { detail: 'Service Unavailable' });
      } finally {
        release();
        await held;
      }
    });

    it('answers 503 temporarily_unavailable when the database cannot take the token', async (t) => {
      const service = await withAlice(t);
      // Another process holds the write lock: the token cannot be stored.
      const other = new Database(service.file);
      other.exec('BEGIN EXCLUSIVE');
      try {
        const answer = await grant(service, ALICE);
        assert.equal(answer.status, 503);
        assert.equal(answer.body.error, 'temporarily_unavailable');
        assert.equal(typeof answer.body.error_description, 'string');
        assert.ok(Number(answer.retryAfter) >= 1);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
    });
  });
});
