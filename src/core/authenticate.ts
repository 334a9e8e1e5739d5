import { isAllOfRequirement, type Requirement } from './auth-spec.js';
import type { Authenticator } from './authenticator.js';
import { csrfApplies } from './csrf-applies.js';
import {
  AuthenticationError,
  BadRequestError,
  CsrfError,
  InsufficientScopeError,
} from './errors.js';
import { isPromiseLike, REJECTED, type Outcome, type Rejected } from './outcome.js';
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
  /**
   * Scopes the operation requires: a requirement whose accepted credentials grant them all
   * (together, for an all-of group) is needed to pass.
   */
  readonly scopes?: readonly string[] | undefined;
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
  /**
   * Headers a 401 carries beside its challenges, as refusals named them (`dpop-nonce`, RFC 9449
   * §8); left out when none did.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The result of {@link authenticate}. */
export type AuthResult = AuthSuccess | AuthFailure;

/** An authenticator that ran and did not accept: its challenge goes into the 401. */
interface Tried {
  readonly authenticator: Authenticator;
  /** Its refusal of the credential presented; `undefined` when there was none. */
  readonly refusal: Rejected | undefined;
}

/**
 * Runs requirements in order; the first whose every member accepts decides. A request that any
 * member distrusts (a forged client certificate) is refused before one runs. Absent or rejected
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
  const { repeats, wary } = factsOf(requirements);
  if (wary.length > 0) {
    const failure = distrusted(requirements, wary, request, options);
    if (failure !== undefined) return failure;
  }
  const memory = repeats ? new Memory(true) : undefined;
  return walk(requirements, request, options, memory, 0, 0);
}

/**
 * The 401 for a request that a member of `wary` distrusts (see `Authenticator#distrusts`), or
 * what its check threw; `undefined` when every one trusts it. No member ran, so the challenges
 * are every member's as for a request without credentials (RFC 6750 §3.1: no `error` where no
 * token was presented), but for a credential a distrusting member found, refused with them.
 */
function distrusted(
  requirements: readonly Requirement[],
  wary: readonly Authenticator[],
  request: RequestView,
  options: AuthenticateOptions,
): AuthFailure | undefined {
  let refusals: Map<Authenticator, Rejected | undefined> | undefined;
  // Each is asked, so that each names the credential of its own it refuses.
  for (const authenticator of wary) {
    let distrusts;
    try {
      distrusts = authenticator.distrusts?.(request);
    } catch (error) {
      return thrown(undefined, authenticator, error, options);
    }
    if (distrusts === undefined || distrusts === false) continue;
    (refusals ??= new Map()).set(authenticator, distrusts === true ? undefined : distrusts);
  }
  if (refusals === undefined) return undefined;
  const members = new Set(requirements.flat());
  const tried = [...members].map((authenticator) => ({
    authenticator,
    refusal: refusals.get(authenticator),
  }));
  return refused(new AuthenticationError(), false, tried, options);
}

/**
 * What a walk over the requirements carries from one member to the next, and across a pending
 * verdict. Made at the first thing worth remembering: a request whose first authenticator
 * accepts at once allocates nothing but its result.
 */
class Memory {
  /** The authenticators that ran and did not accept, for the challenges of a 401. */
  readonly tried: Tried[] = [];
  /**
   * Verdicts by authenticator, when one stands in several requirements ([allOf(a, b), b]): it
   * runs once per request, since hooks may count attempts or hit a store.
   */
  readonly seen: Map<Authenticator, Outcome<unknown>> | undefined;
  /** A cookie credential failed its CSRF check: 403, unless a later requirement passes. */
  csrfFailed = false;
  /** Authenticators that accepted without the scopes required: 403, unless a later one passes. */
  readonly unscoped: Authenticator[] = [];
  /** The first requirement that passed but must still find its CSRF token in the form body. */
  deferred: AuthSuccess | undefined;
  /** The values of the current requirement's members so far (an all-of group's). */
  values: unknown[] | undefined;
  /** The binding a member of the current requirement deferred its CSRF check with. */
  binding: string | undefined;
  /** The verdict the walk paused for, once it has settled. */
  settled: Outcome<unknown> | undefined;

  constructor(repeats: boolean) {
    this.seen = repeats ? new Map() : undefined;
  }
}

/** Walks from member `m` of requirement `r` on, synchronously until a verdict is pending. */
function walk(
  requirements: readonly Requirement[],
  request: RequestView,
  options: AuthenticateOptions,
  memory: Memory | undefined,
  r: number,
  m: number,
): AuthResult | Promise<AuthResult> {
  nextRequirement: for (; r < requirements.length; r++, m = 0) {
    const requirement = requirements[r] as Requirement;
    const group = requirement.length > 1 || isAllOfRequirement(requirement);
    if (m === 0 && memory !== undefined) {
      memory.values = undefined;
      memory.binding = undefined;
    }
    let value: unknown;
    for (; m < requirement.length; m++) {
      const authenticator = requirement[m] as Authenticator;
      let outcome = memory?.settled ?? memory?.seen?.get(authenticator);
      if (memory !== undefined) memory.settled = undefined;
      if (outcome === undefined) {
        let verdict;
        try {
          verdict = authenticator.verify(request);
        } catch (error) {
          return thrown(memory, authenticator, error, options);
        }
        if (isPromiseLike(verdict)) {
          const paused = memory ?? new Memory(false);
          return Promise.resolve(verdict).then(
            (settled) => {
              paused.settled = settled;
              return walk(requirements, request, options, paused, r, m);
            },
            (error: unknown) => thrown(paused, authenticator, error, options),
          );
        }
        outcome = verdict;
      }
      memory?.seen?.set(authenticator, outcome);

      if (outcome.state === 'ambiguous') return ambiguous(authenticator, options.realm);
      if (outcome.state !== 'accepted') {
        memory ??= new Memory(false);
        memory.tried.push({
          authenticator,
          refusal: outcome.state === 'rejected' ? outcome : undefined,
        });
        continue nextRequirement;
      }
      if (options.csrf !== undefined && csrfApplies(authenticator, request.method)) {
        // A cookie-based authenticator that names no binding is still checked (fail closed).
        const binding = outcome.csrfBinding ?? '';
        const csrf = options.csrf(request, binding);
        if (csrf === 'fail') {
          (memory ??= new Memory(false)).csrfFailed = true;
          continue nextRequirement;
        }
        if (csrf === 'defer') (memory ??= new Memory(false)).binding = binding;
      }
      if (group) ((memory ??= new Memory(false)).values ??= []).push(outcome.value);
      else value = outcome.value;
    }
    // Every member accepted.
    if (group) value = memory?.values;
    if (options.scopes !== undefined && !grants(requirement, group, value, options.scopes)) {
      (memory ??= new Memory(false)).unscoped.push(...requirement);
      continue nextRequirement;
    }
    if (memory?.binding === undefined) return { ok: true, value, requirement };
    memory.deferred ??= { ok: true, value, requirement, csrfDeferred: memory.binding };
  }
  // Only a walk that remembers something gets here: every requirement failed or deferred.
  return finish(memory as Memory, options);
}

/** Whether the values a requirement accepted with grant every scope in `scopes`. */
function grants(
  requirement: Requirement,
  group: boolean,
  value: unknown,
  scopes: readonly string[],
): boolean {
  const granted = new Set<string>();
  requirement.forEach((authenticator, i) => {
    const own = group ? (value as unknown[])[i] : value;
    for (const scope of authenticator.scopesOf(own)) granted.add(scope);
  });
  return scopes.every((scope) => granted.has(scope));
}

function finish(memory: Memory, options: AuthenticateOptions): AuthResult {
  const { realm } = options;
  if (memory.deferred !== undefined) return memory.deferred;
  if (memory.unscoped.length > 0) {
    const scopes = options.scopes as readonly string[];
    return {
      ok: false,
      error: new InsufficientScopeError(),
      thrown: false,
      challenges: distinctLines(memory.unscoped, (a) => a.scopeChallenge(a.realm ?? realm, scopes)),
    };
  }
  if (memory.csrfFailed) {
    return { ok: false, error: new CsrfError(), thrown: false, challenges: [] };
  }
  return refused(new AuthenticationError(), false, memory.tried, options);
}

/**
 * The 400 for a credential given more than once, or by two methods: ambiguity never picks a
 * winner. The authenticator that found it names it in its challenge, if it has one for a 400.
 */
function ambiguous(
  authenticator: Authenticator,
  realm: string,
  error: unknown = new BadRequestError(),
): AuthFailure {
  const line = authenticator.badRequestChallenge(authenticator.realm ?? realm);
  return { ok: false, error, thrown: false, challenges: line === undefined ? [] : [line] };
}

/**
 * A hook's error, for the exception handlers, with the challenges of those tried until then; a
 * `BadRequestError` it threw is answered as an ambiguous credential is, an
 * `InsufficientScopeError` as a lack of the route's scopes and those it names.
 */
function thrown(
  memory: Memory | undefined,
  authenticator: Authenticator,
  error: unknown,
  options: AuthenticateOptions,
): AuthFailure {
  const { realm } = options;
  if (error instanceof BadRequestError) {
    return { ...ambiguous(authenticator, realm, error), thrown: true };
  }
  if (error instanceof InsufficientScopeError) {
    const challenges = stepUpChallenges([authenticator], options, error.scopes);
    return { ok: false, error, thrown: true, challenges };
  }
  const tried = [...(memory?.tried ?? []), { authenticator, refusal: REJECTED }];
  return refused(error, true, tried, options);
}

/**
 * A 401's failure (or an error a hook threw, answered as its class says): the challenges of
 * those `tried`, and the headers their refusals named.
 */
function refused(
  error: unknown,
  thrown: boolean,
  tried: readonly Tried[],
  options: AuthenticateOptions,
): AuthFailure {
  const lines = challenges(tried, options.realm, options.scopes);
  let headers: Record<string, string> | undefined;
  for (const { refusal } of tried) {
    // The first to name a header wins: a second nonce would contradict it.
    if (refusal?.headers !== undefined) headers = { ...refusal.headers, ...headers };
  }
  const failure = { ok: false, error, thrown, challenges: lines } as const;
  return headers === undefined ? failure : { ...failure, headers };
}

/**
 * The challenges of a 403 for a lack of scope found after authentication (a hook, a handler
 * asking for more): those of `authenticators` (the winner's) naming every scope needed, the
 * operation's and `more`.
 */
export function stepUpChallenges(
  authenticators: readonly Authenticator[],
  options: AuthenticateOptions,
  more: readonly string[],
): string[] {
  const scopes = [...new Set([...(options.scopes ?? []), ...more])];
  return distinctLines(authenticators, (a) => a.scopeChallenge(a.realm ?? options.realm, scopes));
}

/** What evaluating a list needs to know of it, found once per list. */
interface ListFacts {
  /** Whether an authenticator stands in more than one place. */
  readonly repeats: boolean;
  /** The members that may distrust a request, asked before any member runs. */
  readonly wary: readonly Authenticator[];
}

/** One authenticator alone: it cannot repeat, and refuses what it distrusts by itself. */
const ALONE: ListFacts = Object.freeze({ repeats: false, wary: [] });
const facts = new WeakMap<readonly Requirement[], ListFacts>();

/** The facts of a list, found once per list; one authenticator alone needs no lookup. */
function factsOf(requirements: readonly Requirement[]): ListFacts {
  if (requirements.length === 1 && requirements[0]?.length === 1) return ALONE;
  let known = facts.get(requirements);
  if (known === undefined) {
    const members = requirements.flat();
    const distinct = new Set(members);
    const wary = [...distinct].filter((member) => member.distrusts !== undefined);
    known = { repeats: distinct.size !== members.length, wary };
    facts.set(requirements, known);
  }
  return known;
}

function challenges(
  tried: readonly Tried[],
  realm: string,
  scopes: readonly string[] = [],
): string[] {
  return distinctLines(tried, ({ authenticator, refusal }) =>
    authenticator.challenge(
      authenticator.realm ?? realm,
      refusal !== undefined,
      scopes,
      refusal?.error,
    ),
  );
}

/** The lines `line` gives for `items`, in order, each once: one `WWW-Authenticate` per challenge. */
export function distinctLines<T>(
  items: Iterable<T>,
  line: (item: T) => string | undefined,
): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const text = line(item);
    if (text !== undefined && !lines.includes(text)) lines.push(text);
  }
  return lines;
}
