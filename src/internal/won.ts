import type { Requirement } from '../core/auth-spec.js';
import { stepUpChallenges, type AuthenticateOptions } from '../core/authenticate.js';
import { InsufficientScopeError } from '../core/errors.js';

/** What authenticated a request: the winning requirement, under its declaration's options. */
export interface Won {
  readonly requirement: Requirement;
  readonly engine: AuthenticateOptions;
}

/**
 * The challenges of an error thrown after `won` authenticated the request, by a handler or
 * middleware: a step-up (`InsufficientScopeError`) names every scope needed, as the route's own
 * lack of scope does; any other error has none.
 */
export function afterAuthChallenges(error: unknown, won: Won | undefined): readonly string[] {
  if (!(error instanceof InsufficientScopeError) || won === undefined) return [];
  return stepUpChallenges(won.requirement, won.engine, error.scopes);
}
