import { isAllOfRequirement, type Requirement } from './auth-spec.js';
import type { Authenticator } from './authenticator.js';
import { AuthenticationError, BadRequestError, CsrfError } from './errors.js';
import { isPromiseLike, type Outcome } from './outcome.js';
import type { RequestView } from './request.js';
import { isSafeMethod } from './safe-method.js';

/** A CSRF check's verdict: passed, failed, or waiting for the form body (`defer`). */
export type CsrfVerdict = 'pass' | 'fail' | 'defer';

/**
 * Checks that an unsafe request carrying a cookie credential really comes from the site. `binding`
 * is what the CSRF token must be bound to (the session id, the key); `''` when the cookie-based
 * authenticator names none.
 */
export type CsrfVerifier = (request: RequestView, binding: string) => CsrfVerdict;

/** Options of {@link authenticate}. */
export interface AuthenticateOptions {
  /** Realm for challenges of authenticators that have none of their own. */
  readonly realm: string;
  /** The CSRF check to apply to cookie credentials on unsafe methods; none when omitted. */
  readonly csrf?: CsrfVerifier | undefined;
}

/** The request is authenticated. */
export interface AuthSuccess {
  readonly ok: true;
  /** The winner's value (a list of values for an all-of group); becomes `request.auth`. */
  readonly value: unknown;
  /** The requirement that accepted. */
  readonly requirement: Requirement;
  /** Set when the CSRF token must still be read from the form body, bound to this value. */
  readonly csrfDeferred?: string;
}

/** The request is refused, or a hook threw (`thrown`, to go to the exception handlers). */
export interface AuthFailure {
  readonly ok: false;
  /** A {@link VouchError} verdict, or whatever the hook threw. */
  readonly error: unknown;
  /** Whether `error` was thrown by a hook (and is not vouch's own verdict). */
  readonly thrown: boolean;
  /** `WWW-Authenticate` challenges of the authenticators tried, one per line. */
  readonly challenges: readonly string[];
}

/** The result of {@link authenticate}. */
export type AuthResult = AuthSuccess | AuthFailure;

/** An authenticator that ran and did not accept: its challenge goes into the 401. */
export interface Tried {
  readonly authenticator: Authenticator;
  readonly rejected: boolean;
}

/**
 * Runs requirements in order; the first whose every member accepts decides. Absent or rejected
 * credentials move on to the next; an ambiguous one answers 400 at once; a hook that throws ends
 * the list and its error is returned for the exception handlers. A cookie credential failing CSRF
 * is unusable, so the next requirement still runs; 403 only when nothing else accepts.
 */
export function authenticate(
  requirements: readonly Requirement[],
  request: RequestView,
  options: AuthenticateOptions,
): Promise<AuthResult> {
  return Promise.resolve(evaluate(requirements, request, options));
}

/**
 * {@link authenticate} without a promise when none is needed: the result is returned directly
 * when every verdict was synchronous, and a promise from the first pending verdict on. Adapters
 * use it to keep synchronous hooks off the microtask queue.
 */
export function evaluate(
  requirements: readonly Requirement[],
  request: RequestView,
  options: AuthenticateOptions,
): AuthResult | Promise<AuthResult> {
  return new Evaluation(requirements, request, options, hasRepeats(requirements)).run(0, 0);
}

/** What one verdict means for the walk: next member, next requirement, or the final answer. */
type Step = 'member' | 'requirement' | AuthResult;

// One walk over the requirements. It runs synchronously until a verdict is pending, then resumes
// from that very member when it settles; its fields carry the walk across that pause.
export class Evaluation {
  readonly #requirements: readonly Requirement[];
  readonly #request: RequestView;
  readonly #realm: string;
  readonly #csrf: CsrfVerifier | undefined;
  // An authenticator named in several requirements ([allOf(a, b), b]) runs once per request:
  // hooks may count attempts or hit a store.
  readonly #seen: Map<Authenticator, Outcome<unknown>> | undefined;
  // Allocated only when needed: a request that passes at once allocates neither.
  #tried: Tried[] | undefined;
  #csrfFailed = false;
  #deferred: AuthSuccess | undefined;
  #values: unknown[] | undefined;
  #deferredBinding: string | undefined;

  constructor(
    requirements: readonly Requirement[],
    request: RequestView,
    options: AuthenticateOptions,
    repeats: boolean,
  ) {
    this.#requirements = requirements;
    this.#request = request;
    this.#realm = options.realm;
    this.#csrf =
      options.csrf !== undefined && !isSafeMethod(request.method) ? options.csrf : undefined;
    this.#seen = repeats ? new Map() : undefined;
  }

  /** Walks from member `m` of requirement `r` on. */
  run(r: number, m: number): AuthResult | Promise<AuthResult> {
    for (; r < this.#requirements.length; r++, m = 0) {
      const requirement = this.#requirements[r] as Requirement;
      if (m === 0) {
        this.#values = undefined;
        this.#deferredBinding = undefined;
      }
      let failed = false;
      for (; m < requirement.length; m++) {
        const authenticator = requirement[m] as Authenticator;
        let outcome = this.#seen?.get(authenticator);
        if (outcome === undefined) {
          let verdict;
          try {
            verdict = authenticator.verify(this.#request);
          } catch (error) {
            return this.#thrown(authenticator, error);
          }
          if (isPromiseLike(verdict)) return this.#resume(verdict, authenticator, r, m);
          outcome = verdict;
          this.#seen?.set(authenticator, outcome);
        }
        const step = this.#judge(authenticator, outcome);
        if (step === 'requirement') {
          failed = true;
          break;
        }
        if (step !== 'member') return step;
      }
      if (failed) continue;
      const success = this.#passed(requirement);
      if (success !== undefined) return success;
    }
    return this.#finish();
  }

  #resume(
    verdict: PromiseLike<Outcome<unknown>>,
    authenticator: Authenticator,
    r: number,
    m: number,
  ): Promise<AuthResult> {
    return Promise.resolve(verdict).then(
      (outcome) => {
        this.#seen?.set(authenticator, outcome);
        const step = this.#judge(authenticator, outcome);
        if (step === 'member') return this.run(r, m + 1);
        if (step === 'requirement') return this.run(r + 1, 0);
        return step;
      },
      (error: unknown) => this.#thrown(authenticator, error),
    );
  }

  #judge(authenticator: Authenticator, outcome: Outcome<unknown>): Step {
    if (outcome.state === 'ambiguous') return ambiguous();
    if (outcome.state !== 'accepted') {
      (this.#tried ??= []).push({ authenticator, rejected: outcome.state === 'rejected' });
      return 'requirement';
    }
    if (this.#csrf !== undefined && authenticator.cookieBased) {
      // A cookie-based authenticator that names no binding is still checked (fail closed).
      const binding = outcome.csrfBinding ?? '';
      const verdict = this.#csrf(this.#request, binding);
      if (verdict === 'fail') {
        this.#csrfFailed = true;
        return 'requirement';
      }
      if (verdict === 'defer') this.#deferredBinding = binding;
    }
    (this.#values ??= []).push(outcome.value);
    return 'member';
  }

  #passed(requirement: Requirement): AuthSuccess | undefined {
    const values = this.#values as unknown[];
    const value = requirement.length === 1 && !isAllOfRequirement(requirement) ? values[0] : values;
    if (this.#deferredBinding === undefined) return { ok: true, value, requirement };
    this.#deferred ??= { ok: true, value, requirement, csrfDeferred: this.#deferredBinding };
    return undefined;
  }

  #thrown(authenticator: Authenticator, error: unknown): AuthFailure {
    (this.#tried ??= []).push({ authenticator, rejected: true });
    return thrownBy(this.#tried, error, this.#realm);
  }

  #finish(): AuthResult {
    if (this.#deferred !== undefined) return this.#deferred;
    if (this.#csrfFailed)
      return { ok: false, error: new CsrfError(), thrown: false, challenges: [] };
    return unauthenticated(this.#tried ?? [], this.#realm);
  }
}

/** The 400 for a credential given more than once: ambiguity never picks a winner. */
export function ambiguous(): AuthFailure {
  return { ok: false, error: new BadRequestError(), thrown: false, challenges: [] };
}

/** The 401 once every authenticator in `tried` was absent or refused. */
export function unauthenticated(tried: readonly Tried[], realm: string): AuthFailure {
  return {
    ok: false,
    error: new AuthenticationError(),
    thrown: false,
    challenges: challenges(tried, realm),
  };
}

/** A hook's error, for the exception handlers, with the challenges of those tried until then. */
export function thrownBy(tried: readonly Tried[], error: unknown, realm: string): AuthFailure {
  return { ok: false, error, thrown: true, challenges: challenges(tried, realm) };
}

const repeats = new WeakMap<readonly Requirement[], boolean>();

/** Whether an authenticator stands in more than one requirement; decided once per list. */
export function hasRepeats(requirements: readonly Requirement[]): boolean {
  let known = repeats.get(requirements);
  if (known === undefined) {
    const members = requirements.flat();
    known = new Set(members).size !== members.length;
    repeats.set(requirements, known);
  }
  return known;
}

function challenges(tried: readonly Tried[], realm: string): string[] {
  const lines: string[] = [];
  for (const { authenticator, rejected } of tried) {
    const line = authenticator.challenge(authenticator.realm ?? realm, rejected);
    if (line !== undefined && !lines.includes(line)) lines.push(line);
  }
  return lines;
}
