import { isAllOfRequirement, type Requirement } from './auth-spec.js';
import {
  ambiguous,
  Evaluation,
  hasRepeats,
  thrownBy,
  unauthenticated,
  type AuthenticateOptions,
  type AuthResult,
} from './authenticate.js';
import type { Authenticator } from './authenticator.js';
import { isPromiseLike, type Outcome } from './outcome.js';
import type { RequestView } from './request.js';

/** Authenticates one request: the result directly when no verdict was pending, else a promise. */
export type Evaluator = (request: RequestView) => AuthResult | Promise<AuthResult>;

/** How a route's requirements are evaluated. */
export interface Prepared {
  readonly evaluate: Evaluator;
  /**
   * Whether `evaluate` is the short path of a sole authenticator. An adapter should call sole
   * evaluators and list evaluators from two different functions: V8 keeps type feedback per
   * function literal, and a call that only ever meets sole evaluators stays inlined.
   */
  readonly sole: boolean;
}

/**
 * Decides once, for a route, how its requirements are evaluated on every request; it answers
 * exactly as `evaluate()` would. Most routes name one authenticator, and for them the walk
 * over a list (its state, repeats, all-of values) is skipped altogether.
 */
export function prepare(
  requirements: readonly Requirement[],
  options: AuthenticateOptions,
): Prepared {
  const sole = soleAuthenticator(requirements, options);
  if (sole !== undefined) {
    return {
      evaluate: soleEvaluator(sole, requirements[0] as Requirement, options.realm),
      sole: true,
    };
  }
  const repeats = hasRepeats(requirements);
  return {
    evaluate: (request) => new Evaluation(requirements, request, options, repeats).run(0, 0),
    sole: false,
  };
}

/** The one authenticator of a list of one requirement of one member that no CSRF check touches. */
function soleAuthenticator(
  requirements: readonly Requirement[],
  options: AuthenticateOptions,
): Authenticator | undefined {
  if (requirements.length !== 1) return undefined;
  const requirement = requirements[0] as Requirement;
  if (requirement.length !== 1 || isAllOfRequirement(requirement)) return undefined;
  const authenticator = requirement[0] as Authenticator;
  return authenticator.cookieBased && options.csrf !== undefined ? undefined : authenticator;
}

function soleEvaluator(
  authenticator: Authenticator,
  requirement: Requirement,
  realm: string,
): Evaluator {
  const judge = (outcome: Outcome<unknown>): AuthResult => {
    if (outcome.state === 'accepted') return { ok: true, value: outcome.value, requirement };
    if (outcome.state === 'ambiguous') return ambiguous();
    return unauthenticated([{ authenticator, rejected: outcome.state === 'rejected' }], realm);
  };
  const thrown = (error: unknown): AuthResult =>
    thrownBy([{ authenticator, rejected: true }], error, realm);
  return (request) => {
    let verdict;
    try {
      verdict = authenticator.verify(request);
    } catch (error) {
      return thrown(error);
    }
    return isPromiseLike(verdict) ? Promise.resolve(verdict).then(judge, thrown) : judge(verdict);
  };
}
