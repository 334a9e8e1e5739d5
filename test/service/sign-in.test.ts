// POST /api/token and the failed-attempt limits it shares with POST /api/auth/login and HTTP Basic.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashGate } from '../../service/security/hash-gate.js';
import { createFailureLimiter } from '../../service/security/rate-limit.js';
import { refusalDelay } from '../../service/security/refusal-delay.js';
import { sendRaw } from '../helpers/raw-http.js';
import { addUser, basic, form, json, setCookies, startService, type Service } from './helpers.js';

const WRONG = { detail: 'Incorrect username or password' };

describe('POST /api/token', () => {
  it('is callable without credentials, and ignores a bad Authorization header', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const init = form({ username: 'alice', password: 'wonderland' });
      const response = await service.fetch('/api/token', {
        ...init,
        headers: { ...(init.headers as Record<string, string>), ...headers },
      });
      assert.equal(response.status, 200);
    }
  });

  it('answers an unknown user and a wrong password with the identical 400', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const wrongPassword = await service.fetch(
      '/api/token',
      form({ username: 'alice', password: 'wonderlant' }),
    );
    const unknownUser = await service.fetch(
      '/api/token',
      form({ username: 'mallory', password: 'wonderland' }),
    );
    const seen = [];
    for (const response of [wrongPassword, unknownUser]) {
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(response.headers.get('www-authenticate'), null);
      seen.push(await response.text());
    }
    assert.equal(seen[0], JSON.stringify(WRONG));
    assert.equal(seen[1], seen[0]);
  });

  it('is case-sensitive about usernames', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const response = await service.fetch(
      '/api/token',
      json({ username: 'Alice', password: 'wonderland' }),
    );
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), WRONG);
  });
});

// Bug: a body that fails validation (or parsing) reaches Fastify's default error reply
// {statusCode, code, error, message}, which the routes' 400 response schema ({detail} required)
// cannot serialise, so the client gets 500 FST_ERR_FAILED_ERROR_SERIALIZATION instead of 400.
const invalidBodies: readonly [string, RequestInit][] = [
  ['a form without the password', form({ username: 'alice' })],
  ['JSON without the username', json({ password: 'wonderland' })],
  ['an empty password', form({ username: 'alice', password: '' })],
  ['no body at all', { method: 'POST' }],
  [
    'malformed JSON',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' },
  ],
  // Values are taken as sent: a one-element array or a number is not a string.
  ['JSON arrays of one string', json({ username: ['alice'], password: ['wonderland'] })],
  ['a JSON array for the password', json({ username: 'alice', password: ['wonderland'] })],
  ['a JSON number', json({ username: 'alice', password: 12345678 })],
  [
    'a JSON key given twice',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":"alice","password":"nope","password":"wonderland"}',
    },
  ],
  [
    'a form giving the password twice',
    formPairs([
      ['username', 'alice'],
      ['password', 'wonderland'],
      ['password', 'wonderland'],
    ]),
  ],
];

function formPairs(pairs: [string, string][]): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(pairs).toString(),
  };
}
for (const path of ['/api/token', '/api/auth/login']) {
  describe(`POST ${path} with an invalid body`, () => {
    for (const [name, init] of invalidBodies) {
      it(`answers 400 for ${name}`, async (t) => {
        const service = await startService(t);
        await addUser(service.store, 'alice', 'wonderland');
        const response = await service.fetch(path, init);
        assert.equal(response.status, 400);
        const { detail } = (await response.json()) as { detail?: unknown };
        assert.equal(typeof detail, 'string');
        assert.notEqual(detail, WRONG.detail, 'refused as a bad request, never tried as a login');
      });
    }
  });
}

describe('a flood of sign-ins', () => {
  it('is checked a few at a time; beyond the queue it answers 503 a second after each', async (t) => {
    // Different usernames from different addresses: no limit holds them back, each costs scrypt.
    // One check at a time and eight waiting, whatever this machine's pace.
    const service = await startService(t, {
      env: { TRUST_PROXY: 'loopback' },
      hashGate: hashGate({ concurrency: 1, queue: 8, maxAnswerMs: Infinity }),
    });
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const init = form({ username: `nobody-${i}`, password: 'guess' });
        const response = await service.fetch('/api/token', {
          ...init,
          headers: {
            ...(init.headers as Record<string, string>),
            'x-forwarded-for': `10.9.${i}.1`,
          },
        });
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.json(),
          ms: Date.now() - started,
        };
      }),
    );
    const checked = answers.filter((answer) => answer.status === 400);
    const shed = answers.filter((answer) => answer.status === 503);
    // One running and eight waiting; the rest shed.
    assert.equal(checked.length, 9);
    assert.equal(shed.length, 21);
    for (const answer of shed) {
      assert.equal(answer.retryAfter, '1');
      assert.deepEqual(answer.body, { detail: 'Service Unavailable' });
    }
    // Held for the second Retry-After asks for, then answered: never left waiting on the checks.
    const shedMs = shed.map((answer) => answer.ms);
    assert.ok(Math.min(...shedMs) >= 990 && Math.max(...shedMs) < 1800, shedMs.join());
    // Shed attempts were never counted as failures: the address may sign in right away.
    const retried = await service.fetch('/api/token', {
      ...form({ username: 'nobody-29', password: 'guess' }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '10.9.29.1',
      },
    });
    assert.equal(retried.status, 400);
  });

  it('answers a connection that ignores Retry-After once a second, not as fast as it asks', async (t) => {
    // The only password check is taken for the whole test: every sign-in is refused 503.
    const gate = hashGate({ concurrency: 1, queue: 0 });
    const service = await startService(t, { env: { TRUST_PROXY: 'loopback' }, hashGate: gate });
    const taken = gate.run(() => sleep(3000));
    t.after(() => taken);
    // Sign-ins back to back on one keep-alive connection (fetch reuses it), for 2.5 s.
    const until = performance.now() + 2500;
    const answers: { status: number; ms: number }[] = [];
    for (let i = 0; performance.now() < until; i++) {
      const sent = performance.now();
      const response = await service.fetch('/api/token', {
        ...form({ username: `flood-${i}`, password: 'guess' }),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `10.8.${i % 250}.1`,
        },
      });
      await response.arrayBuffer();
      answers.push({ status: response.status, ms: performance.now() - sent });
    }
    assert.ok(answers.length <= 3, `${answers.length} answers in 2.5 s`);
    for (const { status, ms } of answers) {
      assert.equal(status, 503);
      assert.ok(ms >= 1000 && ms < 2000, `answered after ${ms} ms`);
    }
    // Anything else on another connection is answered at once meanwhile.
    const started = performance.now();
    assert.equal((await service.fetch('/api/version')).status, 200);
    assert.ok(performance.now() - started < 500);
  });

  it('holds a locked-out sign-in a second too, then answers 429', async (t) => {
    const limiter = createFailureLimiter({
      perUsernameAndAddress: { attempts: 1, windowSeconds: 60 },
    });
    const service = await startService(t, { env: { TRUST_PROXY: 'loopback' }, limiter });
    const guess = () =>
      service.fetch('/api/token', {
        ...form({ username: 'nobody', password: 'guess' }),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': '192.0.2.9',
        },
      });
    assert.equal((await guess()).status, 400);
    const started = performance.now();
    const refused = await guess();
    const ms = performance.now() - started;
    assert.equal(refused.status, 429);
    assert.ok(ms >= 1000 && ms < 2000, `answered after ${ms} ms`);
  });
});

describe('failed sign-in limits', () => {
  // What the limits count is the subject here: refusals are answered at once, not held.
  const atOnce = refusalDelay({ ms: 0 });

  /**
   * A service whose client addresses come from X-Forwarded-For (the test is the proxy), with
   * alice and bob; limits per minute as given, the defaults otherwise.
   */
  async function limited(t: TestContext, limits: Partial<Record<string, number>> = {}) {
    const perMinute = (attempts: number | undefined, fallback: number) => ({
      attempts: attempts ?? fallback,
      windowSeconds: 60,
    });
    const limiter = createFailureLimiter({
      perUsernameAndAddress: perMinute(limits.pair, 3),
      perAddress: perMinute(limits.address, 100),
      perUsername: perMinute(limits.username, 100),
      perDevice: perMinute(limits.device, 3),
    });
    const service = await startService(t, {
      limiter,
      env: { TRUST_PROXY: 'loopback' },
      refusalDelay: atOnce,
    });
    await addUser(service.store, 'alice', 'wonderland');
    await addUser(service.store, 'bob', 'bobpassword');
    return service;
  }

  async function assertLockedOut(response: Response, window = 60): Promise<void> {
    assert.equal(response.status, 429);
    const retryAfter = Number(response.headers.get('retry-after'));
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= window,
      String(retryAfter),
    );
    assert.deepEqual(await response.json(), { detail: 'Too Many Requests' });
  }

  /** POST /api/token from `address`, with `cookie` if any. */
  const token = (
    service: Service,
    username: string,
    password: string,
    address = '192.0.2.1',
    cookie?: string,
  ) => {
    const init = form({ username, password });
    return service.fetch('/api/token', {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        'x-forwarded-for': address,
        ...(cookie === undefined ? {} : { cookie }),
      },
    });
  };

  /** The device cookie a successful sign-in handed out, as a `Cookie` header value. */
  const deviceOf = (response: Response): string => {
    const device = setCookies(response).get('vouch_device');
    assert.ok(device !== undefined, 'a device cookie is set');
    assert.match(device.line, /HttpOnly/i);
    assert.match(device.line, /SameSite=Lax/i);
    assert.match(device.line, /Path=\/api/);
    return `vouch_device=${device.value}`;
  };

  it('locks out a username from the address that failed, with Retry-After', async (t) => {
    const service = await limited(t);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await token(service, 'alice', 'guess', '203.0.113.9');
      assert.equal(response.status, 400, `attempt ${attempt}`);
    }
    await assertLockedOut(await token(service, 'alice', 'guess', '203.0.113.9'));
    // The right password is refused as well, from there.
    await assertLockedOut(await token(service, 'alice', 'wonderland', '203.0.113.9'));
    // Other usernames from that address are not affected.
    assert.equal((await token(service, 'bob', 'bobpassword', '203.0.113.9')).status, 200);
  });

  it('never refuses the owner signing in from another address because an attacker failed', async (t) => {
    // The defaults of the service: 5 per username and address, 50, 100, 10.
    const service = await startService(t, {
      env: { TRUST_PROXY: 'loopback' },
      refusalDelay: atOnce,
    });
    await addUser(service.store, 'alice', 'wonderland');
    for (let attempt = 0; attempt < 20; attempt++) {
      await token(service, 'alice', `guess-${attempt}`, '203.0.113.9');
    }
    await assertLockedOut(await token(service, 'alice', 'wonderland', '203.0.113.9'), 15 * 60);
    assert.equal((await token(service, 'alice', 'wonderland', '192.0.2.1')).status, 200);
  });

  it('locks out an address that has used up its failures, across usernames', async (t) => {
    const service = await limited(t, { pair: 100, address: 3 });
    await addUser(service.store, 'carol', 'carolpassword');
    assert.equal((await token(service, 'alice', 'guess')).status, 400);
    assert.equal((await token(service, 'bob', 'guess')).status, 400);
    assert.equal((await token(service, 'carol', 'guess')).status, 400);
    await assertLockedOut(await token(service, 'carol', 'carolpassword'));
    await assertLockedOut(await token(service, 'alice', 'wonderland'));
  });

  it("a distributed guess meets the username's ceiling; the owner's device does not", async (t) => {
    const service = await limited(t, { username: 5 });
    const signedIn = await token(service, 'alice', 'wonderland', '192.0.2.1');
    assert.equal(signedIn.status, 200);
    const device = deviceOf(signedIn);
    for (let attempt = 0; attempt < 5; attempt++) {
      assert.equal((await token(service, 'alice', 'guess', `10.0.${attempt}.1`)).status, 400);
    }
    await assertLockedOut(await token(service, 'alice', 'wonderland', '192.0.2.1'));
    // The owner's device, from anywhere, is limited on its own only.
    for (const address of ['192.0.2.1', '198.51.100.7']) {
      const response = await token(service, 'alice', 'wonderland', address, device);
      assert.equal(response.status, 200, address);
    }
    // A cookie forged, or issued to another user, is no device of alice's.
    const bob = deviceOf(await token(service, 'bob', 'bobpassword', '192.0.2.2'));
    const forged = `vouch_device=${'A'.repeat(22)}.${'B'.repeat(43)}`;
    for (const cookie of [bob, forged, `${device}x`]) {
      await assertLockedOut(await token(service, 'alice', 'wonderland', '192.0.2.1', cookie));
    }
  });

  it('a device is limited on its own failures', async (t) => {
    const service = await limited(t, { device: 3 });
    const device = deviceOf(await token(service, 'alice', 'wonderland'));
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await token(service, 'alice', 'guess', '192.0.2.1', device);
      assert.equal(response.status, 400, `attempt ${attempt}`);
    }
    await assertLockedOut(await token(service, 'alice', 'wonderland', '192.0.2.1', device));
    // Those failures counted against the device only: without it, from the same address, fine.
    assert.equal((await token(service, 'alice', 'wonderland', '192.0.2.1')).status, 200);
  });

  it('forgets the failures of a username from an address after a successful sign-in', async (t) => {
    const service = await limited(t);
    assert.equal((await token(service, 'alice', 'guess')).status, 400);
    assert.equal((await token(service, 'alice', 'guess')).status, 400);
    assert.equal((await token(service, 'alice', 'wonderland')).status, 200);
    for (let attempt = 1; attempt <= 3; attempt++) {
      assert.equal((await token(service, 'alice', 'guess')).status, 400, `attempt ${attempt}`);
    }
    await assertLockedOut(await token(service, 'alice', 'guess'));
  });

  it('hands a device cookie to every successful sign-in, Basic aside', async (t) => {
    const service = await limited(t);
    deviceOf(await token(service, 'alice', 'wonderland'));
    deviceOf(
      await service.fetch('/api/auth/login', form({ username: 'alice', password: 'wonderland' })),
    );
  });

  /** Each way of signing in: a failing and a succeeding attempt. */
  const ways: readonly [
    string,
    (service: Service, password: string) => Promise<Response>,
    number,
  ][] = [
    ['POST /api/token', (service, password) => token(service, 'alice', password), 400],
    [
      'POST /api/auth/login',
      (service, password) =>
        service.fetch('/api/auth/login', {
          ...form({ username: 'alice', password }),
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': '192.0.2.1',
          },
        }),
      400,
    ],
    [
      'GET /api/basic',
      (service, password) =>
        service.fetch('/api/basic', {
          headers: { ...basic('alice', password), 'x-forwarded-for': '192.0.2.1' },
        }),
      401,
    ],
  ];
  for (const [failVia, fail, failStatus] of ways) {
    it(`shares the lockout: failures on ${failVia} lock out every way of signing in`, async (t) => {
      const service = await limited(t);
      for (let attempt = 1; attempt <= 3; attempt++) {
        assert.equal((await fail(service, 'guess')).status, failStatus, `attempt ${attempt}`);
      }
      for (const [via, signIn] of ways) {
        const response = await signIn(service, 'wonderland');
        assert.equal(response.status, 429, via);
        await assertLockedOut(response);
      }
    });
  }
});

describe('a sign-in from a page of another site (login CSRF)', () => {
  // What a browser sends with a cross-site POST: Origin (null from a sandboxed or opaque page),
  // Sec-Fetch-Site, or only a Referer.
  const crossSite: readonly Record<string, string>[] = [
    { origin: 'http://evil.example' },
    { origin: 'null' },
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
    { 'sec-fetch-site': 'same-site', origin: 'http://sub.evil.example' },
    { referer: 'http://evil.example/page' },
  ];
  const bodies: readonly [string, Record<string, string>][] = [
    ['the plain form', { username: 'alice', password: 'wonderland' }],
    ['the password grant', { grant_type: 'password', username: 'alice', password: 'wonderland' }],
  ];
  const post = (service: Service, path: string, fields: Record<string, string>, headers = {}) => {
    const init = form(fields);
    return service.fetch(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...headers },
    });
  };

  for (const path of ['/api/token', '/api/auth/login']) {
    for (const [name, fields] of bodies) {
      if (path === '/api/auth/login' && 'grant_type' in fields) continue;
      it(`${path} refuses it (${name}) 403 before the password: no token, no cookie`, async (t) => {
        // One failure per username and address would lock alice out: none may be counted.
        const limiter = createFailureLimiter({
          perUsernameAndAddress: { attempts: 1, windowSeconds: 60 },
        });
        const service = await startService(t, { limiter });
        await addUser(service.store, 'alice', 'wonderland');
        for (const headers of crossSite) {
          const refused = await post(service, path, fields, headers);
          assert.equal(refused.status, 403, JSON.stringify(headers));
          assert.deepEqual(await refused.json(), { detail: 'CSRF check Failed' });
          assert.deepEqual(refused.headers.getSetCookie(), [], 'no device or session cookie');
        }
        // The page of the service itself, and a client that says nothing of where it comes from
        // (curl, an SDK: browsers always send Origin with a cross-site POST), still sign in.
        for (const headers of [
          {},
          { origin: service.config.publicOrigin },
          { 'sec-fetch-site': 'same-origin', origin: service.config.publicOrigin },
          { 'sec-fetch-site': 'none' },
        ]) {
          const allowed = await post(service, path, fields, headers);
          assert.equal(allowed.status, 200, JSON.stringify(headers));
          assert.ok(setCookies(allowed).has('vouch_device'));
        }
      });
    }
  }
});

describe('every answer of a sign-in route is never stored', () => {
  // Whoever makes the answer: the handler, a hook (CSRF, the busy check), the body parser
  // (malformed, too large, another media type) or the validator.
  const FORM = 'application/x-www-form-urlencoded';
  const cases: readonly [string, Record<string, string>, string, number][] = [
    ['signed in', { 'content-type': FORM }, 'username=alice&password=wonderland', 200],
    ['a wrong password', { 'content-type': FORM }, 'username=alice&password=guess', 400],
    ['no password', { 'content-type': FORM }, 'username=alice', 400],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"username":', 400],
    ['an empty JSON body', { 'content-type': 'application/json' }, '', 400],
    ['another media type', { 'content-type': 'application/xml' }, '<username/>', 415],
    ['a body too large', { 'content-type': FORM }, `password=${'a'.repeat(2 ** 21)}`, 413],
    ['another site', { 'content-type': FORM, origin: 'http://evil.example' }, 'x=1', 403],
    ['locked out', { 'content-type': FORM }, 'username=alice&password=guess', 429],
  ];

  for (const path of ['/api/token', '/api/auth/login']) {
    it(`${path}: Cache-Control: no-store on each answer, over inject`, async (t) => {
      const limiter = createFailureLimiter({
        perUsernameAndAddress: { attempts: 1, windowSeconds: 60 },
      });
      const gate = hashGate({ concurrency: 1, queue: 0 });
      const service = await startService(t, { limiter, hashGate: gate });
      await addUser(service.store, 'alice', 'wonderland');
      const answers: [string, number, string | undefined, string | undefined][] = [];
      const send = async (name: string, headers: Record<string, string>, payload: string) => {
        const response = await service.app.inject({ method: 'POST', url: path, headers, payload });
        const header = (key: string) => response.headers[key] as string | undefined;
        answers.push([name, response.statusCode, header('cache-control'), header('pragma')]);
      };
      for (const [name, headers, payload] of cases) await send(name, headers, payload);
      // Every password check taken: the next sign-in is shed before its body is read.
      let release = () => {};
      const held = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
      await send('checks busy', { 'content-type': FORM }, 'username=bob&password=guess');
      release();
      await held;

      const pragma = path === '/api/token' ? 'no-cache' : undefined;
      assert.deepEqual(answers, [
        ...cases.map(([name, , , status]) => [name, status, 'no-store', pragma]),
        ['checks busy', 503, 'no-store', pragma],
      ]);
    });
  }

  it('/api/token: Cache-Control: no-store on a 413 over a real socket', async (t) => {
    const service = await startService(t);
    const answer = await sendRaw(
      Number(new URL(service.base).port),
      'POST /api/token HTTP/1.1\r\nHost: x\r\n' +
        `Content-Type: ${FORM}\r\nContent-Length: 4194304\r\n\r\n` +
        'username=alice&password=',
    );
    assert.equal(answer.status, 413);
    assert.match(answer.head, /^cache-control: no-store$/im);
    assert.match(answer.head, /^pragma: no-cache$/im);
    assert.deepEqual(Object.keys(JSON.parse(answer.body) as object), ['detail']);
  });
});
