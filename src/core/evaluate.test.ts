import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { allOf } from './all-of.js';
import { resolveAuth, type Requirement } from './auth-spec.js';
import { authenticate, evaluate, type AuthResult, type CsrfVerifier } from './authenticate.js';
import { Authenticator } from './authenticator.js';
import { VouchError } from './errors.js';
import { authFunction } from './function-authenticator.js';
import { isPromiseLike, type Outcome } from './outcome.js';
import type { RequestView } from './request.js';
import type { SecurityScheme } from './security-scheme.js';
import { HttpBearer } from '../http/http-bearer.js';
import { APIKeyHeader } from '../api-key/api-key-header.js';

type Verdict = 'absent' | 'rejected' | 'ambiguous' | 'accepted' | 'throws';

interface Script {
  readonly verdict: Verdict;
  readonly cookieBased: boolean;
  /** Answer with a promise instead of synchronously. */
  readonly async: boolean;
}

/** An authenticator that answers what its script says, sync or async, counting its calls. */
class Scripted extends Authenticator<string> {
  calls = 0;
  readonly script: Script;
  readonly error: Error;

  constructor(
    readonly id: number,
    script: Script,
  ) {
    super(`scripted${id}`);
    this.script = script;
    this.error = new Error(`thrown by ${id}`);
  }

  override get securityScheme(): SecurityScheme | undefined {
    return undefined;
  }

  override get cookieBased(): boolean {
    return this.script.cookieBased;
  }

  override challenge(realm: string, rejected: boolean): string {
    return `S${this.id} realm="${realm}"${rejected ? ', error="x"' : ''}`;
  }

  override verify(): Outcome<string> | Promise<Outcome<string>> {
    this.calls++;
    const { verdict, async } = this.script;
    if (verdict === 'throws') {
      if (async) return Promise.reject(this.error);
      throw this.error;
    }
    const outcome: Outcome<string> =
      verdict === 'accepted'
        ? { state: 'accepted', value: `v${this.id}`, csrfBinding: `b${this.id}` }
        : { state: verdict };
    return async ? Promise.resolve(outcome) : outcome;
  }
}

// No raw lines: the parsed headers the cases give are all there is.
const GET: RequestView = { method: 'GET', url: '/x', headers: {} };
const POST: RequestView = { ...GET, method: 'POST' };

/** Comparable shape of a result: errors by code (vouch's) or identity (thrown). */
function shape(result: AuthResult, requirements: readonly Requirement[]): unknown {
  if (result.ok) {
    return {
      ok: true,
      value: result.value,
      requirement: requirements.indexOf(result.requirement),
      csrfDeferred: result.csrfDeferred,
    };
  }
  return {
    ok: false,
    error: result.error instanceof VouchError ? result.error.code : result.error,
    thrown: result.thrown,
    challenges: result.challenges,
  };
}

describe('evaluate()', () => {
  it('answers without a promise when every verdict is synchronous', () => {
    const bearer = new HttpBearer({
      authenticate: (_r, token) => (token === 'ok' ? 'bearer' : undefined),
    });
    const key = new APIKeyHeader({ paramName: 'X-Key', authenticate: () => 'key' });
    const requirements = resolveAuth([bearer, key], 'GET /x');
    assert.ok(requirements !== null);
    const accepted = evaluate(
      requirements,
      { ...GET, headers: { 'x-key': 'k' } },
      { realm: 'api' },
    );
    assert.equal(isPromiseLike(accepted), false);
    assert.deepEqual(accepted, { ok: true, value: 'key', requirement: requirements[1] });
    const refused = evaluate(
      requirements,
      { ...GET, headers: { authorization: 'Bearer no' } },
      { realm: 'api' },
    );
    assert.equal(isPromiseLike(refused), false);
    assert.equal((refused as AuthResult).ok, false);
  });

  it('returns a promise from the first pending verdict on, resuming at the next member', async () => {
    const a = authFunction(() => 'a');
    const b = authFunction(() => Promise.resolve('b'));
    const c = authFunction(() => 'c');
    const requirements = resolveAuth([allOf(a, b, c)], 'GET /x');
    assert.ok(requirements !== null);
    const pending = evaluate(requirements, GET, { realm: 'api' });
    assert.equal(isPromiseLike(pending), true);
    const result = await pending;
    assert.deepEqual(result, { ok: true, value: ['a', 'b', 'c'], requirement: requirements[0] });
  });

  it('runs an asynchronous authenticator named in several requirements once', async () => {
    const slow = new Scripted(1, { verdict: 'accepted', cookieBased: false, async: true });
    const absent = new Scripted(2, { verdict: 'absent', cookieBased: false, async: false });
    const result = await evaluate([[slow, absent], [slow]], GET, { realm: 'api' });
    assert.equal(result.ok && result.value, 'v1');
    assert.equal(slow.calls, 1);
  });

  it('keeps the challenges of members tried before a pending one threw', async () => {
    const refused = new Scripted(1, { verdict: 'rejected', cookieBased: false, async: false });
    const throws = new Scripted(2, { verdict: 'throws', cookieBased: false, async: true });
    const result = await evaluate([[refused], [throws]], GET, { realm: 'api' });
    assert.deepEqual(shape(result, []), {
      ok: false,
      error: throws.error,
      thrown: true,
      challenges: ['S1 realm="api", error="x"', 'S2 realm="api", error="x"'],
    });
  });

  // The synchronous walk pauses at a pending verdict and resumes from that member; whatever the
  // mix of synchronous and asynchronous answers, the verdict and the hooks called must be exactly
  // those of the all-asynchronous walk.
  it('decides as the all-asynchronous walk does, for any mix of sync and async verdicts', async () => {
    const script = fc.record({
      verdict: fc.constantFrom<Verdict>('absent', 'rejected', 'ambiguous', 'accepted', 'throws'),
      cookieBased: fc.boolean(),
      async: fc.boolean(),
    });
    const scenario = fc.record({
      scripts: fc.array(script, { minLength: 1, maxLength: 5 }),
      // Each requirement names members by index, so one authenticator may stand in several.
      shape: fc.array(fc.array(fc.nat(4), { minLength: 1, maxLength: 3 }), {
        minLength: 1,
        maxLength: 4,
      }),
      post: fc.boolean(),
      csrf: fc.array(fc.constantFrom<'pass' | 'fail' | 'defer'>('pass', 'fail', 'defer'), {
        minLength: 5,
        maxLength: 5,
      }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ scripts, shape: layout, post, csrf: verdicts }) => {
        const build = (forceAsync: boolean) => {
          const members = scripts.map(
            (s, i) => new Scripted(i, forceAsync ? { ...s, async: true } : s),
          );
          const requirements = layout.map((indexes) =>
            indexes.map((i) => members[i % members.length] as Scripted),
          );
          return { members, requirements };
        };
        const csrf: CsrfVerifier = (_request, binding) =>
          verdicts[Number(binding.slice(1))] ?? 'fail';
        const options = { realm: 'api', csrf };
        const request = post ? POST : GET;

        const mixed = build(false);
        const reference = build(true);
        const got = await evaluate(mixed.requirements, request, options);
        const want = await authenticate(reference.requirements, request, options);

        const norm = (result: AuthResult, built: typeof mixed) => {
          const s = shape(result, built.requirements) as { error?: unknown };
          const thrownBy = built.members.findIndex((m) => m.error === s.error);
          return thrownBy === -1 ? s : { ...s, error: `thrown by ${thrownBy}` };
        };
        assert.deepEqual(norm(got, mixed), norm(want, reference));
        assert.deepEqual(
          mixed.members.map((m) => m.calls),
          reference.members.map((m) => m.calls),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('answers a synchronous sole authenticator without a promise', () => {
    const bearer = new HttpBearer({ authenticate: () => 'ok' });
    const requirements = resolveAuth(bearer, 'GET /x');
    assert.ok(requirements !== null);
    const options = { realm: 'api' };
    const accepted = evaluate(
      requirements,
      { ...GET, headers: { authorization: 'Bearer t' } },
      options,
    );
    assert.deepEqual(accepted, { ok: true, value: 'ok', requirement: requirements[0] });
    const refused = evaluate(requirements, GET, options);
    assert.equal(isPromiseLike(refused), false);
    assert.deepEqual(
      (refused as AuthResult).ok ? [] : (refused as { challenges: unknown }).challenges,
      ['Bearer realm="api"'],
    );
  });
});
