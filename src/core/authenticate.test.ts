import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyCookie } from '../api-key/api-key-cookie.js';
import { APIKeyHeader } from '../api-key/api-key-header.js';
import { APIKeyQuery } from '../api-key/api-key-query.js';
import { HttpBasic } from '../http/http-basic.js';
import { HttpBearer } from '../http/http-bearer.js';
import { encodeBasicCredentials } from '../http/parse-basic-credentials.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { SessionAuth } from '../session/session-auth.js';
import { allOf } from './all-of.js';
import { resolveAuth, type AuthSpec, type Requirement } from './auth-spec.js';
import {
  authenticate,
  evaluate,
  type AuthFailure,
  type AuthResult,
  type AuthSuccess,
  type CsrfVerifier,
} from './authenticate.js';
import { Authenticator } from './authenticator.js';
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  InsufficientScopeError,
  VouchError,
} from './errors.js';
import { authFunction } from './function-authenticator.js';
import { isPromiseLike, refusal, type Outcome, type Rejected } from './outcome.js';
import type { RequestView } from './request.js';
import type { SecurityScheme } from './security-scheme.js';

interface RequestInit {
  readonly method?: string;
  readonly url?: string;
  readonly headers?: Record<string, string>;
  /** Extra raw lines, e.g. a second Authorization line. */
  readonly extraLines?: readonly [string, string][];
}

function request(init: RequestInit = {}): RequestView {
  const headers = init.headers ?? {};
  const lines = [...Object.entries(headers), ...(init.extraLines ?? [])];
  return {
    method: init.method ?? 'GET',
    url: init.url ?? '/x',
    headers,
    raw: { rawHeaders: lines.flat() },
  };
}

function requirements(spec: AuthSpec): readonly Requirement[] {
  const resolved = resolveAuth(spec, 'GET /x');
  assert.ok(resolved !== null);
  return resolved;
}

function succeeded(result: AuthResult): AuthSuccess {
  assert.equal(result.ok, true, `expected success, got ${JSON.stringify(result)}`);
  return result;
}

function failed(result: AuthResult): AuthFailure {
  assert.equal(result.ok, false, 'expected a failure');
  return result;
}

function codeOf(error: unknown): string | undefined {
  return error instanceof VouchError ? error.code : undefined;
}

/** Real authenticators with hooks that count their calls. */
function fixture() {
  const calls = { bearer: 0, basic: 0, query: 0, header: 0, cookie: 0, fn: 0 };
  const bearer = new HttpBearer({
    authenticate: (_request, token) => {
      calls.bearer++;
      return token === 'good' ? `bearer:${token}` : undefined;
    },
  });
  const basic = new HttpBasic({
    authenticate: (_request, username, password) => {
      calls.basic++;
      return password === 'pw' ? `basic:${username}` : undefined;
    },
  });
  const query = new APIKeyQuery({
    paramName: 'api_key',
    authenticate: (_request, key) => {
      calls.query++;
      return Promise.resolve(key === 'good' ? `query:${key}` : null);
    },
  });
  const header = new APIKeyHeader({
    paramName: 'X-API-Key',
    authenticate: (_request, key) => {
      calls.header++;
      return key === 'good' ? `header:${key}` : false;
    },
  });
  const cookie = new APIKeyCookie({
    paramName: 'X-API-KEY',
    authenticate: (_request, key) => {
      calls.cookie++;
      return key === 'good' ? `cookie:${key}` : undefined;
    },
  });
  const fn = (req: RequestView): string | undefined => {
    calls.fn++;
    return req.headers['x-internal'] === 'yes' ? 'internal' : undefined;
  };
  return { calls, bearer, basic, query, header, cookie, fn };
}

const options = { realm: 'api' } as const;

/** A scripted authenticator: returns what it is told, counting calls. */
class Scripted extends Authenticator<string> {
  calls = 0;
  readonly #run: () => Promise<Outcome<string>>;
  readonly #cookie: boolean;
  readonly #challenge: string | undefined;

  constructor(
    run: () => Promise<Outcome<string>>,
    init: { cookieBased?: boolean; challenge?: string; realm?: string } = {},
  ) {
    super('scripted', init.realm === undefined ? {} : { realm: init.realm });
    this.#run = run;
    this.#cookie = init.cookieBased ?? false;
    this.#challenge = init.challenge;
  }

  override get securityScheme(): SecurityScheme | undefined {
    return undefined;
  }

  override get cookieBased(): boolean {
    return this.#cookie;
  }

  override challenge(
    realm: string,
    rejected: boolean,
    _scopes?: readonly string[],
    error?: string,
  ): string | undefined {
    if (this.#challenge === undefined) return undefined;
    const reason = error === undefined ? '' : ` error=${error}`;
    return `${this.#challenge} realm="${realm}"${rejected ? ' rejected' : ''}${reason}`;
  }

  override verify(): Promise<Outcome<string>> {
    this.calls++;
    return this.#run();
  }
}

/**
 * A scripted authenticator that distrusts requests with `x-forged` (and throws on `throw`); its own
 * credential (`credential`, a header) beside it is refused with them, naming `forged`.
 */
class Wary extends Scripted {
  asked = 0;
  credential = 'x-wary';

  override distrusts(request: RequestView): boolean | Rejected {
    this.asked++;
    const forged = request.headers['x-forged'];
    if (forged === 'throw') throw new Error('edge broke');
    if (forged === undefined) return false;
    return request.headers[this.credential] === undefined ? true : refusal('forged');
  }
}

const accepts = (value: string) => () =>
  Promise.resolve<Outcome<string>>({ state: 'accepted', value });
const refuses = (state: 'absent' | 'rejected' | 'ambiguous') => () =>
  Promise.resolve<Outcome<string>>({ state });

describe('authenticate()', () => {
  describe('list order (any-of)', () => {
    it('the first that accepts decides; later ones are not called', async () => {
      const { calls, bearer, header, fn } = fixture();
      const result = await authenticate(
        requirements([bearer, header, fn]),
        request({ headers: { authorization: 'Bearer good', 'x-api-key': 'good' } }),
        options,
      );
      const success = succeeded(result);
      assert.equal(success.value, 'bearer:good');
      assert.deepEqual(success.requirement, [bearer]);
      assert.equal(success.csrfDeferred, undefined);
      assert.deepEqual(calls, { bearer: 1, basic: 0, query: 0, header: 0, cookie: 0, fn: 0 });
    });

    it('runs an authenticator named in several requirements once per request', async () => {
      const { calls, bearer, header } = fixture();
      const result = await authenticate(
        [[bearer, header], [bearer]],
        request({ headers: { authorization: 'Bearer good' } }),
        options,
      );
      // bearer accepts, header is absent so the group fails; the second requirement reuses
      // bearer's verdict instead of asking its hook again.
      assert.equal(succeeded(result).value, 'bearer:good');
      assert.deepEqual([calls.header, calls.bearer], [0, 1]);
      const rejected = await authenticate(
        [[bearer, header], [bearer]],
        request({ headers: { authorization: 'Bearer bad' } }),
        options,
      );
      assert.equal(rejected.ok, false);
      assert.equal(calls.bearer, 2);
    });

    it('respects the order given, not the kind', async () => {
      const { calls, bearer, header } = fixture();
      const result = await authenticate(
        requirements([header, bearer]),
        request({ headers: { authorization: 'Bearer good', 'x-api-key': 'good' } }),
        options,
      );
      assert.equal(succeeded(result).value, 'header:good');
      assert.equal(calls.bearer, 0);
    });

    it('moves on past absent and rejected credentials', async () => {
      const { calls, bearer, query, header, fn } = fixture();
      const result = await authenticate(
        requirements([query, bearer, header, fn]),
        request({
          url: '/x?other=1',
          headers: { authorization: 'Bearer bad', 'x-internal': 'yes' },
        }),
        options,
      );
      assert.equal(succeeded(result).value, 'internal');
      // query absent (hook not called), bearer rejected, header absent, fn accepted.
      assert.deepEqual(calls, { bearer: 1, basic: 0, query: 0, header: 0, cookie: 0, fn: 1 });
    });

    it('never calls a hook whose credential is absent', async () => {
      const { calls, bearer, basic, query, header, cookie } = fixture();
      const result = await authenticate(
        requirements([bearer, basic, query, header, cookie]),
        request({ method: 'POST' }),
        { realm: 'api', csrf: () => 'fail' },
      );
      assert.equal(codeOf(failed(result).error), 'VOUCH_ERR_UNAUTHENTICATED');
      assert.deepEqual(calls, { bearer: 0, basic: 0, query: 0, header: 0, cookie: 0, fn: 0 });
    });

    it('none accepting → AuthenticationError, not thrown', async () => {
      const { calls, bearer, header } = fixture();
      const failure = failed(
        await authenticate(
          requirements([bearer, header]),
          request({ headers: { authorization: 'Bearer bad', 'x-api-key': 'bad' } }),
          options,
        ),
      );
      assert.ok(failure.error instanceof AuthenticationError);
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_UNAUTHENTICATED');
      assert.equal(failure.thrown, false);
      assert.equal(calls.bearer + calls.header, 2);
    });

    it('returns a single authenticator’s value as is', async () => {
      const { bearer } = fixture();
      const result = await authenticate(
        requirements(bearer),
        request({ headers: { authorization: 'Bearer good' } }),
        options,
      );
      assert.equal(succeeded(result).value, 'bearer:good');
    });

    it('a falsy but accepted value still wins', async () => {
      const zero = authFunction(() => 0);
      const never = new Scripted(accepts('later'));
      const result = await authenticate(requirements([zero, never]), request(), options);
      assert.equal(succeeded(result).value, 0);
      assert.equal(never.calls, 0);
    });
  });

  describe('ambiguous credentials', () => {
    it('answer BadRequestError at once, even when another would accept', async () => {
      const { calls, bearer, header } = fixture();
      const failure = failed(
        await authenticate(
          requirements([bearer, header]),
          request({
            headers: { authorization: 'Bearer good', 'x-api-key': 'good' },
            extraLines: [['Authorization', 'Bearer other']],
          }),
          options,
        ),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_BAD_REQUEST');
      assert.equal((failure.error as VouchError).statusCode, 400);
      assert.equal(failure.thrown, false);
      // RFC 6750 §3.1: the Bearer that found it names it; no 401 challenges on a 400.
      assert.deepEqual(failure.challenges, ['Bearer realm="api", error="invalid_request"']);
      assert.deepEqual(calls, { bearer: 0, basic: 0, query: 0, header: 0, cookie: 0, fn: 0 });
    });

    it('carry no challenge when found by a kind without one for a 400', async () => {
      const { query } = fixture();
      const failure = failed(
        await authenticate(
          requirements(query),
          request({ url: '/x?api_key=a&api_key=b' }),
          options,
        ),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_BAD_REQUEST');
      assert.deepEqual(failure.challenges, []);
    });

    it('answer 400 after earlier authenticators rejected', async () => {
      const { calls, bearer, query } = fixture();
      const failure = failed(
        await authenticate(
          requirements([bearer, query]),
          request({
            url: '/x?api_key=good&api_key=good',
            headers: { authorization: 'Bearer bad' },
          }),
          options,
        ),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_BAD_REQUEST');
      assert.equal(calls.bearer, 1);
      assert.equal(calls.query, 0);
    });

    it('are never reached when an earlier authenticator accepts', async () => {
      const { query, header } = fixture();
      const result = await authenticate(
        requirements([header, query]),
        request({ url: '/x?api_key=a&api_key=b', headers: { 'x-api-key': 'good' } }),
        options,
      );
      assert.equal(succeeded(result).value, 'header:good');
    });
  });

  describe('a hook that throws', () => {
    for (const style of ['sync', 'async'] as const) {
      it(`(${style}) ends the list at once; its error is returned as thrown`, async () => {
        const boom = new Error('database exploded');
        const { calls, bearer, header } = fixture();
        const throwing = new HttpBasic({
          authenticate: () => {
            if (style === 'sync') throw boom;
            return Promise.reject(boom);
          },
        });
        const failure = failed(
          await authenticate(
            requirements([throwing, bearer, header]),
            request({
              headers: {
                authorization: `Basic ${encodeBasicCredentials('a', 'b')}`,
                'x-api-key': 'good',
              },
            }),
            options,
          ),
        );
        assert.equal(failure.error, boom);
        assert.equal(failure.thrown, true);
        assert.equal(calls.bearer + calls.header, 0);
      });
    }

    it('keeps the hook’s own AuthenticationError and the challenges tried so far', async () => {
      const { bearer } = fixture();
      const custom = new AuthenticationError('token revoked');
      const revoking = new APIKeyHeader({
        paramName: 'X-API-Key',
        authenticate: () => {
          throw custom;
        },
      });
      const failure = failed(
        await authenticate(
          requirements([bearer, revoking]),
          request({ headers: { 'x-api-key': 'k' } }),
          options,
        ),
      );
      assert.equal(failure.error, custom);
      assert.equal(failure.thrown, true);
      assert.deepEqual(failure.challenges, [
        'Bearer realm="api"',
        'APIKey realm="api", in="header", name="X-API-Key"',
      ]);
    });

    it('answers an InsufficientScopeError it throws as a lack of scope: every scope needed', async () => {
      const stepUp = new InsufficientScopeError({ scopes: ['pets:admin', 'pets:read'] });
      const picky = new HttpBearer({
        authenticate: () => {
          throw stepUp;
        },
      });
      const failure = failed(
        await authenticate(
          requirements(picky),
          request({ headers: { authorization: 'Bearer t' } }),
          { ...options, scopes: ['pets:read'] },
        ),
      );
      assert.equal(failure.error, stepUp);
      assert.equal(failure.thrown, true);
      assert.deepEqual(failure.challenges, [
        'Bearer realm="api", error="insufficient_scope", scope="pets:read pets:admin"',
      ]);
    });

    it('answers a BadRequestError it throws as an ambiguous credential: no 401 challenges', async () => {
      const malformed = new BadRequestError();
      const picky = new HttpBearer({
        realm: 'tokens',
        authenticate: () => {
          throw malformed;
        },
      });
      const basic = new HttpBasic({ authenticate: () => undefined });
      const failure = failed(
        await authenticate(
          requirements([basic, picky]),
          request({ headers: { authorization: 'Bearer t' } }),
          options,
        ),
      );
      assert.equal(failure.error, malformed);
      assert.equal(failure.thrown, true);
      assert.deepEqual(failure.challenges, ['Bearer realm="tokens", error="invalid_request"']);
    });

    it('passes AuthorizationError and non-Error values through untouched', async () => {
      const forbidden = new AuthorizationError();
      const denied = authFunction(() => {
        throw forbidden;
      });
      const oddity = authFunction((): string => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- hooks may throw anything
        throw 'a string';
      });
      const first = failed(await authenticate(requirements(denied), request(), options));
      assert.equal(first.error, forbidden);
      assert.equal(codeOf(first.error), 'VOUCH_ERR_FORBIDDEN');
      const second = failed(await authenticate(requirements(oddity), request(), options));
      assert.equal(second.error, 'a string');
      assert.equal(second.thrown, true);
    });
  });

  describe('allOf', () => {
    it('passes only when every member accepts; the value is the list', async () => {
      const { calls, header, bearer } = fixture();
      const result = await authenticate(
        requirements(allOf(header, bearer)),
        request({ headers: { authorization: 'Bearer good', 'x-api-key': 'good' } }),
        options,
      );
      const success = succeeded(result);
      assert.deepEqual(success.value, ['header:good', 'bearer:good']);
      assert.deepEqual(success.requirement, [header, bearer]);
      assert.equal(calls.header + calls.bearer, 2);
    });

    it('stops at the first member that does not accept', async () => {
      const { calls, header, bearer, fn } = fixture();
      const failure = failed(
        await authenticate(
          requirements(allOf(header, bearer, fn)),
          request({ headers: { authorization: 'Bearer bad', 'x-api-key': 'good' } }),
          options,
        ),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_UNAUTHENTICATED');
      assert.deepEqual(calls, { bearer: 1, basic: 0, query: 0, header: 1, cookie: 0, fn: 0 });
    });

    it('fails when the first member is absent, and the outer list goes on (OR)', async () => {
      const { calls, header, bearer, fn } = fixture();
      const result = await authenticate(
        requirements([allOf(header, bearer), fn]),
        request({ headers: { authorization: 'Bearer good', 'x-internal': 'yes' } }),
        options,
      );
      assert.equal(succeeded(result).value, 'internal');
      assert.equal(calls.bearer, 0, 'the group stopped at its absent first member');
    });

    it('gives a one-member group a one-element list', async () => {
      const { bearer } = fixture();
      const result = await authenticate(
        requirements(allOf(bearer)),
        request({ headers: { authorization: 'Bearer good' } }),
        options,
      );
      assert.deepEqual(succeeded(result).value, ['bearer:good']);
    });

    it('accepts plain functions as members', async () => {
      const { fn, header } = fixture();
      const result = await authenticate(
        requirements(allOf(fn, header)),
        request({ headers: { 'x-internal': 'yes', 'x-api-key': 'good' } }),
        options,
      );
      assert.deepEqual(succeeded(result).value, ['internal', 'header:good']);
    });
  });

  describe('CSRF', () => {
    /** A real verifier: header token `t-<binding>` passes, a form body defers, else fail. */
    function csrfVerifier() {
      const calls: [RequestView, string][] = [];
      const verify: CsrfVerifier = (req, binding) => {
        calls.push([req, binding]);
        const token = req.headers['x-csrftoken'];
        if (token === undefined) {
          return req.headers['content-type'] === 'application/x-www-form-urlencoded'
            ? 'defer'
            : 'fail';
        }
        return token === `t-${binding}` ? 'pass' : 'fail';
      };
      return { verify, calls };
    }

    for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE']) {
      it(`never checks a safe method (${method})`, async () => {
        const { cookie } = fixture();
        const csrf = csrfVerifier();
        const result = await authenticate(
          requirements(cookie),
          request({ method, headers: { cookie: 'X-API-KEY=good' } }),
          { realm: 'api', csrf: csrf.verify },
        );
        assert.equal(succeeded(result).value, 'cookie:good');
        assert.equal(csrf.calls.length, 0);
      });
    }

    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      it(`checks a cookie credential on ${method}, bound to the key`, async () => {
        const { cookie } = fixture();
        const csrf = csrfVerifier();
        const req = request({
          method,
          headers: { cookie: 'X-API-KEY=good', 'x-csrftoken': 't-good' },
        });
        const result = await authenticate(requirements(cookie), req, {
          realm: 'api',
          csrf: csrf.verify,
        });
        assert.equal(succeeded(result).value, 'cookie:good');
        assert.deepEqual(csrf.calls, [[req, 'good']]);
      });
    }

    it('binds a session credential to the session id', async () => {
      const store = new MemorySessionStore<string>();
      const id = await store.create('ann');
      const session = new SessionAuth({ store });
      const csrf = csrfVerifier();
      const result = await authenticate(
        requirements(session),
        request({
          method: 'POST',
          headers: { cookie: `sessionid=${id}`, 'x-csrftoken': `t-${id}` },
        }),
        { realm: 'api', csrf: csrf.verify },
      );
      assert.equal(succeeded(result).value, 'ann');
      assert.equal(csrf.calls[0]?.[1], id);
    });

    it('never checks a non-cookie credential', async () => {
      const { bearer, header } = fixture();
      const csrf = csrfVerifier();
      const result = await authenticate(
        requirements([bearer, header]),
        request({ method: 'POST', headers: { 'x-api-key': 'good' } }),
        { realm: 'api', csrf: csrf.verify },
      );
      assert.equal(succeeded(result).value, 'header:good');
      assert.equal(csrf.calls.length, 0);
    });

    it('never checks a request without the cookie: a cookie authenticator first does not block Bearer', async () => {
      const { calls, cookie, bearer } = fixture();
      const csrf = csrfVerifier();
      const result = await authenticate(
        requirements([cookie, bearer]),
        request({ method: 'POST', headers: { authorization: 'Bearer good' } }),
        { realm: 'api', csrf: csrf.verify },
      );
      assert.equal(succeeded(result).value, 'bearer:good');
      assert.equal(csrf.calls.length, 0);
      assert.equal(calls.cookie, 0);
    });

    it('does not check a cookie credential the hook rejected', async () => {
      const { cookie } = fixture();
      const csrf = csrfVerifier();
      const failure = failed(
        await authenticate(
          requirements(cookie),
          request({ method: 'POST', headers: { cookie: 'X-API-KEY=bad' } }),
          { realm: 'api', csrf: csrf.verify },
        ),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_UNAUTHENTICATED');
      assert.equal(csrf.calls.length, 0);
    });

    it('fail → the next requirement still runs and may accept', async () => {
      const { calls, cookie, bearer } = fixture();
      const csrf = csrfVerifier();
      const result = await authenticate(
        requirements([cookie, bearer]),
        request({
          method: 'POST',
          headers: { cookie: 'X-API-KEY=good', authorization: 'Bearer good' },
        }),
        { realm: 'api', csrf: csrf.verify },
      );
      assert.equal(succeeded(result).value, 'bearer:good');
      assert.equal(csrf.calls.length, 1);
      assert.equal(calls.bearer, 1);
    });

    it('fail and nothing else accepts → CsrfError without challenges', async () => {
      const { calls, cookie, bearer } = fixture();
      const csrf = csrfVerifier();
      const failure = failed(
        await authenticate(
          requirements([cookie, bearer]),
          request({
            method: 'POST',
            headers: {
              cookie: 'X-API-KEY=good',
              authorization: 'Bearer bad',
              'x-csrftoken': 't-x',
            },
          }),
          { realm: 'api', csrf: csrf.verify },
        ),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_CSRF');
      assert.equal((failure.error as VouchError).statusCode, 403);
      assert.equal(failure.thrown, false);
      assert.deepEqual(failure.challenges, []);
      assert.equal(calls.bearer, 1, 'the later authenticator still ran');
    });

    it('fail inside an all-of group fails the group', async () => {
      const { calls, cookie, header } = fixture();
      const csrf = csrfVerifier();
      const failure = failed(
        await authenticate(
          requirements(allOf(cookie, header)),
          request({ method: 'DELETE', headers: { cookie: 'X-API-KEY=good', 'x-api-key': 'good' } }),
          { realm: 'api', csrf: csrf.verify },
        ),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_CSRF');
      assert.equal(calls.header, 0);
    });

    it('defer → success carrying the binding to check against the form body', async () => {
      const { cookie } = fixture();
      const csrf = csrfVerifier();
      const result = await authenticate(
        requirements(cookie),
        request({
          method: 'POST',
          headers: {
            cookie: 'X-API-KEY=good',
            'content-type': 'application/x-www-form-urlencoded',
          },
        }),
        { realm: 'api', csrf: csrf.verify },
      );
      const success = succeeded(result);
      assert.equal(success.value, 'cookie:good');
      assert.equal(success.csrfDeferred, 'good');
    });

    it('defer → a later requirement that accepts fully wins instead', async () => {
      const { cookie, bearer } = fixture();
      const csrf = csrfVerifier();
      const result = await authenticate(
        requirements([cookie, bearer]),
        request({
          method: 'POST',
          headers: {
            cookie: 'X-API-KEY=good',
            'content-type': 'application/x-www-form-urlencoded',
            authorization: 'Bearer good',
          },
        }),
        { realm: 'api', csrf: csrf.verify },
      );
      const success = succeeded(result);
      assert.equal(success.value, 'bearer:good');
      assert.equal(success.csrfDeferred, undefined);
      assert.deepEqual(success.requirement, [bearer]);
    });

    it('defer → kept when later requirements are absent, reject or defer too', async () => {
      const store = new MemorySessionStore<string>();
      const id = await store.create('ann');
      const session = new SessionAuth({ store });
      const { cookie, bearer } = fixture();
      const csrf = csrfVerifier();
      const result = await authenticate(
        requirements([cookie, bearer, session]),
        request({
          method: 'POST',
          headers: {
            cookie: `X-API-KEY=good; sessionid=${id}`,
            'content-type': 'application/x-www-form-urlencoded',
            authorization: 'Bearer bad',
          },
        }),
        { realm: 'api', csrf: csrf.verify },
      );
      const success = succeeded(result);
      assert.equal(success.value, 'cookie:good');
      assert.equal(success.csrfDeferred, 'good', 'the first deferred requirement is kept');
      assert.equal(csrf.calls.length, 2);
    });

    it('defer wins over a later CSRF failure', async () => {
      const cookieDefer = new Scripted(
        () => Promise.resolve({ state: 'accepted', value: 'first', csrfBinding: 'b1' }),
        { cookieBased: true },
      );
      const cookieFail = new Scripted(
        () => Promise.resolve({ state: 'accepted', value: 'second', csrfBinding: 'b2' }),
        { cookieBased: true },
      );
      const result = await authenticate(
        requirements([cookieDefer, cookieFail]),
        request({ method: 'POST' }),
        {
          realm: 'api',
          csrf: (_req, binding) => (binding === 'b1' ? 'defer' : 'fail'),
        },
      );
      const success = succeeded(result);
      assert.equal(success.value, 'first');
      assert.equal(success.csrfDeferred, 'b1');
    });

    it('defer inside an all-of group defers the group, with the list as value', async () => {
      const { cookie, header } = fixture();
      const result = await authenticate(
        requirements(allOf(cookie, header)),
        request({ method: 'POST', headers: { cookie: 'X-API-KEY=good', 'x-api-key': 'good' } }),
        { realm: 'api', csrf: () => 'defer' },
      );
      const success = succeeded(result);
      assert.deepEqual(success.value, ['cookie:good', 'header:good']);
      assert.equal(success.csrfDeferred, 'good');
    });

    it('checks a cookie-based authenticator that names no binding (fail closed)', async () => {
      const unbound = new Scripted(accepts('cookie-user'), { cookieBased: true });
      const seen: string[] = [];
      const failure = failed(
        await authenticate(requirements(unbound), request({ method: 'POST' }), {
          realm: 'api',
          csrf: (_req, binding) => {
            seen.push(binding);
            return 'fail';
          },
        }),
      );
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_CSRF');
      assert.deepEqual(seen, ['']);
    });

    it('without a verifier, cookie credentials on unsafe methods pass unchecked', async () => {
      const { cookie } = fixture();
      const result = await authenticate(
        requirements(cookie),
        request({ method: 'POST', headers: { cookie: 'X-API-KEY=good' } }),
        options,
      );
      assert.equal(succeeded(result).value, 'cookie:good');
    });
  });

  describe('challenges', () => {
    it('one line per tried authenticator, in order, with error="invalid_token" only on rejection', async () => {
      const { bearer, basic, query, header, cookie } = fixture();
      const failure = failed(
        await authenticate(
          requirements([bearer, basic, query, header, cookie]),
          request({ headers: { authorization: 'Bearer bad' } }),
          options,
        ),
      );
      assert.deepEqual(failure.challenges, [
        'Bearer realm="api", error="invalid_token"',
        'Basic realm="api", charset="UTF-8"',
        'APIKey realm="api", in="query", name="api_key"',
        'APIKey realm="api", in="header", name="X-API-Key"',
        'APIKey realm="api", in="cookie", name="X-API-KEY"',
      ]);
    });

    it('no error="invalid_token" when no token was presented', async () => {
      const { bearer } = fixture();
      const failure = failed(await authenticate(requirements(bearer), request(), options));
      assert.deepEqual(failure.challenges, ['Bearer realm="api"']);
    });

    it('a malformed token counts as presented and rejected', async () => {
      const { calls, bearer } = fixture();
      const failure = failed(
        await authenticate(
          requirements(bearer),
          request({ headers: { authorization: 'Bearer not a token' } }),
          options,
        ),
      );
      assert.deepEqual(failure.challenges, ['Bearer realm="api", error="invalid_token"']);
      assert.equal(calls.bearer, 0);
    });

    it('uses the API realm unless the authenticator has its own', async () => {
      const inner = new HttpBearer({ authenticate: () => undefined, realm: 'inner' });
      const outer = new HttpBasic({ authenticate: () => undefined });
      const failure = failed(
        await authenticate(requirements([inner, outer]), request(), { realm: 'outer "x"' }),
      );
      assert.deepEqual(failure.challenges, [
        'Bearer realm="inner"',
        'Basic realm="outer \\"x\\"", charset="UTF-8"',
      ]);
    });

    it('deduplicates identical lines', async () => {
      const first = new HttpBearer({ authenticate: () => undefined });
      const second = new HttpBearer({ authenticate: () => undefined });
      const failure = failed(
        await authenticate(requirements([first, second, allOf(first, second)]), request(), options),
      );
      assert.deepEqual(failure.challenges, ['Bearer realm="api"']);
    });

    it('keeps a rejected and an absent variant apart', async () => {
      const strict = new HttpBearer({ authenticate: () => undefined });
      const other = new Scripted(refuses('absent'), { challenge: 'Custom' });
      const otherRejecting = new Scripted(refuses('rejected'), { challenge: 'Custom' });
      const failure = failed(
        await authenticate(
          requirements([strict, other, otherRejecting]),
          request({ headers: { authorization: 'Bearer t' } }),
          options,
        ),
      );
      assert.deepEqual(failure.challenges, [
        'Bearer realm="api", error="invalid_token"',
        'Custom realm="api"',
        'Custom realm="api" rejected',
      ]);
    });

    it('session and plain functions send none; a configured function sends its own', async () => {
      const session = new SessionAuth({ store: new MemorySessionStore<string>() });
      const plain = (): undefined => undefined;
      const configured = authFunction(() => undefined, { challenge: 'Internal realm="lan"' });
      const failure = failed(
        await authenticate(requirements([session, plain, configured]), request(), options),
      );
      assert.deepEqual(failure.challenges, ['Internal realm="lan"']);
    });

    it('a refusal names its reason in its challenge, and headers for the 401', async () => {
      const nonce = new Scripted(() => Promise.resolve(refusal('use_nonce', { 'x-nonce': 'n1' })), {
        challenge: 'Nonce',
      });
      const reason = new Scripted(() => Promise.resolve(refusal('bad_proof')), {
        challenge: 'Proof',
      });
      const plain = new Scripted(refuses('rejected'), { challenge: 'Plain' });
      const failure = failed(
        await authenticate(requirements([nonce, reason, plain]), request(), options),
      );
      assert.deepEqual(failure.challenges, [
        'Nonce realm="api" rejected error=use_nonce',
        'Proof realm="api" rejected error=bad_proof',
        'Plain realm="api" rejected',
      ]);
      assert.deepEqual(failure.headers, { 'x-nonce': 'n1' });
    });

    it('names no headers unless a refusal did; of two, the first wins', async () => {
      const plain = new Scripted(refuses('rejected'), { challenge: 'Plain' });
      const none = failed(await authenticate(requirements([plain]), request(), options));
      assert.equal('headers' in none, false);
      const first = new Scripted(() => Promise.resolve(refusal('a', { 'x-nonce': 'first' })));
      const second = new Scripted(() =>
        Promise.resolve(refusal('b', { 'x-nonce': 'second', 'x-other': 'o' })),
      );
      const both = failed(await authenticate(requirements([first, second]), request(), options));
      assert.deepEqual(both.headers, { 'x-nonce': 'first', 'x-other': 'o' });
    });

    it('keeps the headers of refusals before a hook that threw', async () => {
      const nonce = new Scripted(() => Promise.resolve(refusal('use_nonce', { 'x-nonce': 'n1' })), {
        challenge: 'Nonce',
      });
      const thrower = new Scripted(() => Promise.reject(new AuthenticationError('gone')), {
        challenge: 'Thrower',
      });
      const failure = failed(
        await authenticate(requirements([nonce, thrower]), request(), options),
      );
      assert.equal(failure.thrown, true);
      assert.deepEqual(failure.challenges, [
        'Nonce realm="api" rejected error=use_nonce',
        'Thrower realm="api" rejected',
      ]);
      assert.deepEqual(failure.headers, { 'x-nonce': 'n1' });
    });

    it('lists only authenticators actually tried', async () => {
      const { header, bearer } = fixture();
      const failure = failed(
        await authenticate(requirements([allOf(header, bearer)]), request(), options),
      );
      assert.deepEqual(failure.challenges, ['APIKey realm="api", in="header", name="X-API-Key"']);
    });
  });

  describe('a member that distrusts the request', () => {
    const forged = request({ headers: { 'x-forged': 'yes' } });

    it('refuses it before any member runs, wherever it stands: 401, the challenges of all', () => {
      const key = new Scripted(accepts('key'), { challenge: 'Key' });
      const other = new Scripted(accepts('other'), { challenge: 'Other' });
      const wary = new Wary(accepts('wary'), { challenge: 'Wary' });
      // No member ran, so none refused a credential: no challenge says it did (RFC 6750 §3.1).
      const cases: [AuthSpec, string[]][] = [
        [
          [wary, key],
          ['Wary', 'Key'],
        ],
        [
          [key, wary],
          ['Key', 'Wary'],
        ],
        [
          [key, allOf(other, wary)],
          ['Key', 'Other', 'Wary'],
        ],
        [
          [allOf(key, wary), key, wary],
          ['Key', 'Wary'],
        ],
      ];
      for (const [spec, schemes] of cases) {
        // Synchronous: no member ran, so nothing was awaited.
        const result = evaluate(requirements(spec), forged, options);
        assert.ok(!isPromiseLike(result));
        const failure = failed(result);
        assert.equal(codeOf(failure.error), 'VOUCH_ERR_UNAUTHENTICATED');
        assert.equal(failure.thrown, false);
        assert.deepEqual(
          failure.challenges,
          schemes.map((scheme) => `${scheme} realm="api"`),
        );
      }
      assert.deepEqual([key.calls, other.calls, wary.calls, wary.asked], [0, 0, 0, cases.length]);
    });

    it('its own credential beside what it distrusts: its challenge alone says it refused it', () => {
      const key = new Scripted(accepts('key'), { challenge: 'Key' });
      const wary = new Wary(accepts('wary'), { challenge: 'Wary' });
      const presented = request({ headers: { 'x-forged': 'yes', 'x-wary': 'token' } });
      const failure = failed(evaluate(requirements([key, wary]), presented, options) as AuthResult);
      assert.deepEqual(failure.challenges, [
        'Key realm="api"',
        'Wary realm="api" rejected error=forged',
      ]);
    });

    it('every member that may distrust it is asked, and each says what it refused', () => {
      const first = new Wary(accepts('first'), { challenge: 'First' });
      const second = new Wary(accepts('second'), { challenge: 'Second' });
      second.credential = 'x-second';
      const key = new Scripted(accepts('key'), { challenge: 'Key' });
      const auth = requirements([first, key, second]);
      const own = (header: string) => request({ headers: { 'x-forged': 'yes', [header]: 't' } });
      assert.deepEqual(failed(evaluate(auth, own('x-second'), options) as AuthResult).challenges, [
        'First realm="api"',
        'Key realm="api"',
        'Second realm="api" rejected error=forged',
      ]);
      assert.deepEqual(failed(evaluate(auth, own('x-wary'), options) as AuthResult).challenges, [
        'First realm="api" rejected error=forged',
        'Key realm="api"',
        'Second realm="api"',
      ]);
      assert.deepEqual([first.asked, second.asked, key.calls], [2, 2, 0]);
    });

    it('trusting it, is asked once and the list runs as ever', async () => {
      const wary = new Wary(refuses('absent'));
      const key = new Scripted(accepts('key'));
      const result = await authenticate(
        requirements([wary, allOf(wary, key), key]),
        request(),
        options,
      );
      assert.equal(succeeded(result).value, 'key');
      assert.deepEqual([wary.asked, wary.calls, key.calls], [1, 1, 1]);
    });

    it('that cannot tell (its check throws) ends the list as a hook that threw', async () => {
      const wary = new Wary(accepts('wary'), { challenge: 'Wary' });
      const key = new Scripted(accepts('key'));
      const thrown = request({ headers: { 'x-forged': 'throw' } });
      const failure = failed(await authenticate(requirements([key, wary]), thrown, options));
      assert.equal(failure.thrown, true);
      assert.equal((failure.error as Error).message, 'edge broke');
      assert.deepEqual(failure.challenges, ['Wary realm="api" rejected']);
      assert.equal(key.calls, 0);
    });

    it('standing alone, is not asked: its own verdict refuses', async () => {
      const wary = new Wary(refuses('rejected'));
      const failure = failed(await authenticate(requirements(wary), forged, options));
      assert.equal(codeOf(failure.error), 'VOUCH_ERR_UNAUTHENTICATED');
      assert.deepEqual([wary.asked, wary.calls], [0, 1]);
    });
  });

  it('with a scripted list: absent, rejected, then accepted', async () => {
    const a = new Scripted(refuses('absent'));
    const b = new Scripted(refuses('rejected'));
    const c = new Scripted(accepts('c'));
    const d = new Scripted(accepts('d'));
    const result = await authenticate(requirements([a, b, c, d]), request(), options);
    assert.equal(succeeded(result).value, 'c');
    assert.deepEqual([a.calls, b.calls, c.calls, d.calls], [1, 1, 1, 0]);
  });

  it('with a scripted list: ambiguous stops everything', async () => {
    const a = new Scripted(refuses('ambiguous'));
    const b = new Scripted(accepts('b'));
    const failure = failed(await authenticate(requirements([a, b]), request(), options));
    assert.equal(codeOf(failure.error), 'VOUCH_ERR_BAD_REQUEST');
    assert.equal(b.calls, 0);
  });
});
