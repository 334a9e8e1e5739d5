import { AllOf, type AuthMember } from './all-of.js';
import { Authenticator } from './authenticator.js';
import { ConfigurationError } from './errors.js';
import { FunctionAuthenticator, type AuthFunction } from './function-authenticator.js';
import type { Nothing } from './outcome.js';

/** One entry of `auth`: an authenticator, a custom function or an all-of group. */
export type AuthItem = AuthMember | AllOf;

/**
 * The value of an `auth` option: one entry, a list tried in order (any-of, first wins), or `null`
 * to disable authentication.
 */
export type AuthSpec = AuthItem | readonly AuthItem[] | null;

/**
 * The type of `request.auth` for a given `auth` value: the hook's return type for one
 * authenticator, the tuple of values for `allOf`, the union of members for a list.
 */
export type AuthOf<TSpec> = TSpec extends null
  ? undefined
  : TSpec extends Authenticator<infer TAuth>
    ? TAuth
    : TSpec extends AllOf<infer TMembers>
      ? { -readonly [K in keyof TMembers]: AuthOf<TMembers[K]> }
      : TSpec extends readonly (infer TItem)[]
        ? AuthOf<TItem>
        : TSpec extends (...args: never[]) => infer TResult
          ? Exclude<Awaited<TResult>, Nothing>
          : never;

/** Members that must all accept: one authenticator alone, or the members of an all-of group. */
export type Requirement = readonly Authenticator[];

const wrapped = new WeakMap<AuthFunction, FunctionAuthenticator>();
// Requirements made from allOf(...): their value is the list of values even with one member.
const groups = new WeakSet<Requirement>();

/** Whether a requirement came from an all-of group (so `request.auth` is always a list). */
export function isAllOfRequirement(requirement: Requirement): boolean {
  return groups.has(requirement);
}

/** The authenticator standing for a plain function; the same one every time it is asked. */
function asAuthenticator(member: AuthMember): Authenticator {
  if (member instanceof Authenticator) return member;
  let authenticator = wrapped.get(member);
  if (authenticator === undefined) {
    authenticator = new FunctionAuthenticator(member);
    wrapped.set(member, authenticator);
  }
  return authenticator;
}

/**
 * Turns an `auth` value into the requirements it stands for (any-of; each all-of), or `null`
 * when disabled. Throws {@link ConfigurationError} naming `where` for anything else.
 */
export function resolveAuth(spec: unknown, where: string): readonly Requirement[] | null {
  if (spec === null) return null;
  if (Array.isArray(spec)) {
    if (spec.length === 0) {
      throw new ConfigurationError(
        `${where}: auth is an empty list; use auth: null to disable authentication`,
      );
    }
    return spec.map((item: unknown) => requirementOf(item, where));
  }
  return [requirementOf(spec, where)];
}

function requirementOf(item: unknown, where: string): Requirement {
  if (item instanceof AllOf) {
    const requirement = (item as AllOf).members.map(asAuthenticator);
    groups.add(requirement);
    return requirement;
  }
  if (item instanceof Authenticator || typeof item === 'function') {
    return [asAuthenticator(item as AuthMember)];
  }
  throw new ConfigurationError(
    `${where}: auth has an unknown value (${describe(item)}); expected an authenticator, a function, allOf(...), a list of them, or null`,
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a nested list';
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'object') {
    // An object without a prototype (Object.create(null)) has no constructor to name.
    const constructor: unknown = (value as { constructor?: unknown }).constructor;
    return typeof constructor === 'function' && constructor.name !== ''
      ? constructor.name
      : 'object';
  }
  return typeof value;
}
