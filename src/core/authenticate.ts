import { isAllOfRequirement, type Requirement } from './auth-spec.js';
import type { Authenticator } from './authenticator.js';
import { AuthenticationError, BadRequestError, CsrfError } from './errors.js';
import { isPromiseLike, type Outcome } from './outcome.js';
import type { RequestView } from './request.js';

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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

interface Tried {
  readonly authenticator: Authenticator;
  readonly rejected: boolean;
}

/**
 * Runs requirements in order; the first whose every member accepts decides. Absent or rejected
 * credentials move on to the next; an ambiguous one answers 400 at once; a hook that throws ends
 * the list and its error is returned for the exception handlers. A cookie credential failing CSRF
 * is unusable, so the next requirement still runs; 403 only when nothing else accepts.
 */
export async function authenticate(
  requirements: readonly Requirement[],
  request: RequestView,
  options: AuthenticateOptions,
): Promise<AuthResult> {
  const tried: Tried[] = [];
  const csrf =
    options.csrf !== undefined && !SAFE_METHODS.has(request.method) ? options.csrf : undefined;
  let csrfFailed = false;
  let deferred: AuthSuccess | undefined;
  // An authenticator named in several requirements ([allOf(a, b), b]) runs once per request:
  // hooks may count attempts or hit a store.
  const seen = hasRepeats(requirements) ? new Map<Authenticator, Outcome<unknown>>() : undefined;

  for (const requirement of requirements) {
    const values: unknown[] = [];
    let deferredBinding: string | undefined;
    let passed = true;
    for (const authenticator of requirement) {
      let outcome = seen?.get(authenticator);
      if (outcome === undefined) {
        try {
          const verdict = authenticator.verify(request);
          // Awaiting only real promises keeps a synchronous verdict off the microtask queue.
          outcome = isPromiseLike(verdict) ? await verdict : verdict;
        } catch (error) {
          tried.push({ authenticator, rejected: true });
          return { ok: false, error, thrown: true, challenges: challenges(tried, options.realm) };
        }
        seen?.set(authenticator, outcome);
      }
      if (outcome.state === 'ambiguous') {
        return { ok: false, error: new BadRequestError(), thrown: false, challenges: [] };
      }
      if (outcome.state !== 'accepted') {
        tried.push({ authenticator, rejected: outcome.state === 'rejected' });
        passed = false;
        break;
      }
      if (csrf !== undefined && authenticator.cookieBased) {
        // A cookie-based authenticator that names no binding is still checked (fail closed).
        const binding = outcome.csrfBinding ?? '';
        const verdict = csrf(request, binding);
        if (verdict === 'fail') {
          csrfFailed = true;
          passed = false;
          break;
        }
        if (verdict === 'defer') deferredBinding = binding;
      }
      values.push(outcome.value);
    }
    if (!passed) continue;
    const value = requirement.length === 1 && !isAllOfRequirement(requirement) ? values[0] : values;
    if (deferredBinding === undefined) return { ok: true, value, requirement };
    deferred ??= { ok: true, value, requirement, csrfDeferred: deferredBinding };
  }

  if (deferred !== undefined) return deferred;
  if (csrfFailed) return { ok: false, error: new CsrfError(), thrown: false, challenges: [] };
  return {
    ok: false,
    error: new AuthenticationError(),
    thrown: false,
    challenges: challenges(tried, options.realm),
  };
}

const repeats = new WeakMap<readonly Requirement[], boolean>();

/** Whether an authenticator stands in more than one requirement; decided once per list. */
function hasRepeats(requirements: readonly Requirement[]): boolean {
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
