import { resolveAuth, type Requirement } from '../core/auth-spec.js';
import { ConfigurationError } from '../core/errors.js';

/**
 * The check behind every engine's `authOf(request, auth)`: throws unless `auth` stands for the
 * requirement that authenticated the request (`winner`; `null` where none ran), so a typed value
 * is never a guess. `route` names the route, never the request's URL, which may carry a
 * credential.
 */
export function checkWinner(winner: Requirement | null, auth: unknown, route: () => string): void {
  // The usual call, one authenticator that won alone, is answered without resolving `auth`.
  if (winner !== null && winner.length === 1 && winner[0] === auth) return;
  const requirements = resolveAuth(auth, 'authOf()');
  const matches =
    requirements === null
      ? winner === null
      : winner !== null &&
        requirements.some(
          (requirement) =>
            requirement.length === winner.length &&
            requirement.every((member, index) => member === winner[index]),
        );
  if (!matches) {
    throw new ConfigurationError(`authOf(): ${route()} was not authenticated by the given auth`);
  }
}
