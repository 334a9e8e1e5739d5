import { Authenticator } from './authenticator.js';
import { ConfigurationError } from './errors.js';
import type { AuthFunction } from './function-authenticator.js';

/** One authenticator or custom function: what may stand in a list or an all-of group. */
export type AuthMember = Authenticator | AuthFunction;

/**
 * A group that passes only when every member accepts; `request.auth` is the list of their values,
 * in order. In OpenAPI it is one security requirement naming every member (AND).
 */
export class AllOf<const TMembers extends readonly AuthMember[] = readonly AuthMember[]> {
  /** The members, in the order they run. */
  readonly members: TMembers;

  constructor(members: TMembers) {
    if (members.length === 0) throw new ConfigurationError('allOf() needs at least one member');
    for (const member of members as readonly unknown[]) {
      if (!(member instanceof Authenticator) && typeof member !== 'function') {
        throw new ConfigurationError(
          'allOf() members must be authenticators or functions (lists and groups do not nest)',
        );
      }
    }
    this.members = members;
  }
}

/**
 * Requires every member to accept (AND).
 *
 * @example auth: [allOf(apiKey, bearer), session] // (apiKey AND bearer) OR session
 */
export function allOf<const TMembers extends readonly AuthMember[]>(
  ...members: TMembers
): AllOf<TMembers> {
  return new AllOf(members);
}
