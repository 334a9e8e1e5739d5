import type { FastifyInstance } from 'fastify';
import { ConfigurationError } from '../core/errors.js';

/** A value given at one level, or nothing given there (which is not the same as `null`). */
export type Setting<T> = { readonly set: true; readonly value: T } | { readonly set: false };

const UNSET: Setting<never> = Object.freeze({ set: false });

/**
 * What one encapsulation context (the API, or a router) says about authentication. Scopes chain
 * to their parent, so nested routers inherit.
 */
export interface Scope {
  readonly parent: Scope | undefined;
  /** `auth` given when the router was mounted (`register(router, { auth })`). */
  readonly mountAuth: Setting<unknown>;
  /** `csrf` given when the router was mounted. */
  readonly mountCsrf: Setting<boolean>;
  /** `auth` given when the router was created (or, at the root, the API-wide value). */
  ownAuth: Setting<unknown>;
  /** `csrf` given when the router was created (or, at the root, the API-wide value). */
  ownCsrf: Setting<boolean>;
}

/** Where a context's scope is kept; child contexts see their parent's through the prototype. */
export const kScope = Symbol('vouch.scope');

type Scoped = FastifyInstance & { [kScope]?: Scope };

/** Reads a plugin option the way `in` does, distinguishing `auth: null` from no `auth`. */
export function settingOf<T>(options: unknown, key: string): Setting<T> {
  return typeof options === 'object' && options !== null && key in options
    ? { set: true, value: (options as Record<string, T>)[key] as T }
    : UNSET;
}

/** Gives a new encapsulation context its own scope, below its parent's. */
export function openScope(instance: FastifyInstance, mountOptions: unknown): void {
  const scoped = instance as Scoped;
  const csrf = settingOf<unknown>(mountOptions, 'csrf');
  if (csrf.set && typeof csrf.value !== 'boolean') {
    throw new ConfigurationError(`router mounted at "${instance.prefix}": csrf must be a boolean`);
  }
  scoped[kScope] = {
    parent: scoped[kScope],
    mountAuth: settingOf(mountOptions, 'auth'),
    mountCsrf: csrf as Setting<boolean>,
    ownAuth: UNSET,
    ownCsrf: UNSET,
  };
}

/** The scope owned by this very context, or a configuration error when vouch is missing. */
export function ownScope(instance: FastifyInstance, what: string): Scope {
  const scoped = instance as Scoped;
  const scope = scoped[kScope];
  if (scope === undefined || !Object.hasOwn(scoped, kScope)) {
    throw new ConfigurationError(
      `${what}: register the vouch plugin on the API before this router, and mount the router with register()`,
    );
  }
  return scope;
}

/**
 * The first level that sets a value decides: mount, then the router's own, then the enclosing
 * router's (mount, own), up to the API.
 */
export function inherited<T>(
  scope: Scope | undefined,
  pick: (scope: Scope) => readonly [Setting<T>, Setting<T>],
): Setting<T> {
  for (let current = scope; current !== undefined; current = current.parent) {
    const [mount, own] = pick(current);
    if (mount.set) return mount;
    if (own.set) return own;
  }
  return UNSET;
}
