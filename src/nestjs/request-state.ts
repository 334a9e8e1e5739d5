import type { Won } from '../internal/won.js';
import type { RouteEntry } from './route-table.js';

/** What vouch knows of one request, from the moment it authenticated it. */
export interface RequestState {
  /** The route whose declaration decided. */
  readonly entry: RouteEntry;
  /** What authenticated the request, once it is; for `@Principal(auth)` and a step-up. */
  won: Won | undefined;
  /** The winner's value. */
  auth: unknown;
  /** Set when the CSRF token must still be read from the parsed form body, bound to this. */
  csrfDeferred: string | undefined;
  /** The challenges of the authenticators tried before a hook threw, for the 401 it answers. */
  challenges: readonly string[];
  /** Headers the refusals before a hook threw named for the 401 (`DPoP-Nonce`). */
  refusalHeaders: Readonly<Record<string, string>> | undefined;
}

// On Node's request, which the platform's request objects wrap (Fastify) or are (Express): Nest
// hands middleware the one and handlers the other. A property rather than a WeakMap entry, which
// costs about a microsecond a request (the insertion, then the collector's ephemeron work).
const kState = Symbol('vouch.state');

type Stated = { [kState]?: RequestState };

/** Node's request under a platform's: Fastify's `request.raw`, or Express's request itself. */
export function rawOf(request: object): object {
  const raw = (request as { raw?: unknown }).raw;
  return typeof raw === 'object' && raw !== null ? raw : request;
}

/** The state of a request, given its platform's request or Node's. */
export function stateOf(request: object): RequestState | undefined {
  return (rawOf(request) as Stated)[kState];
}

/** Starts the state of a request that `entry` decides. */
export function openState(request: object, entry: RouteEntry): RequestState {
  const state: RequestState = {
    entry,
    won: undefined,
    auth: undefined,
    csrfDeferred: undefined,
    challenges: [],
    refusalHeaders: undefined,
  };
  (rawOf(request) as Stated)[kState] = state;
  return state;
}

/**
 * Sets `auth` on the request objects Nest hands middleware and handlers: Express's request, or
 * Fastify's and the Node request under it.
 */
export function setAuth(request: object, auth: unknown): void {
  (request as { auth?: unknown }).auth = auth;
  const raw = rawOf(request);
  if (raw !== request) (raw as { auth?: unknown }).auth = auth;
}
