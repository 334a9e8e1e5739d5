import type { Requirement } from './auth-spec.js';
import type { Authenticator } from './authenticator.js';
import { isSafeMethod } from './safe-method.js';

/**
 * Whether the CSRF check applies to a credential `member` accepts on `method` (contract §4): it
 * reads a cookie, which a browser sends on its own, and the method is unsafe. Without `method`,
 * on a method not known yet (a middleware that any method may reach).
 *
 * @example csrfApplies(session, 'POST') // true
 */
export function csrfApplies(member: Authenticator, method?: string): boolean {
  return member.cookieBased && (method === undefined || !isSafeMethod(method));
}

/**
 * Whether {@link csrfApplies} to some member of `requirements` on one of `methods` (on any
 * method, when they are not known): whether the check can refuse a request to the route.
 */
export function csrfAppliesToSome(
  requirements: readonly Requirement[],
  methods?: readonly string[],
): boolean {
  return requirements.some((requirement) =>
    requirement.some((member) =>
      methods === undefined
        ? csrfApplies(member)
        : methods.some((method) => csrfApplies(member, method)),
    ),
  );
}
