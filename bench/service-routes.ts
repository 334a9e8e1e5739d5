import type { Shot } from './load.js';
import type { Compared } from './report.js';
import type { BenchStore, ServiceCredentials } from './service-process.js';

/** A route of the service under load: how it is compared and what it must answer. */
export interface ServiceRoute extends Compared {
  /** The timed request: the route's path with every credential (see {@link everyCredential}). */
  shot(credentials: ServiceCredentials): Shot;
  /** The same request without the credential, which must answer 401 (none for public routes). */
  refused(credentials: ServiceCredentials): Shot | undefined;
  /** Something the body must contain, so that the timed answer is the real one. */
  readonly bodyIncludes: string;
}

/**
 * Every timed request carries the same headers, every credential of the benchmark (token, key
 * and session cookie), the baseline's too: request sizes and header parsing are then the same
 * everywhere, and what differs between two routes is what each does with them.
 */
export function everyCredential(path: string, credentials: ServiceCredentials): Shot {
  return {
    path,
    headers: {
      authorization: `Bearer ${credentials.token}`,
      'x-api-key': credentials.apiKey,
      cookie: `sessionid=${credentials.sessionId}`,
    },
  };
}

/**
 * The routes compared, baseline first: `/api/version` has no authentication and no store
 * access; `/api/health` reads the store once without authentication, to show what any lookup
 * costs; the others authenticate against the real database, through the service's credential
 * cache as the service runs by default (`--credential-cache 0`: one read every time).
 */
export const serviceRoutes: readonly ServiceRoute[] = [
  {
    path: '/api/version',
    kind: 'baseline',
    description: 'auth: null, no store access',
    target: null,
    shot: (credentials) => everyCredential('/api/version', credentials),
    refused: () => undefined,
    bodyIncludes: '"name":"vouch"',
  },
  {
    path: '/api/health',
    kind: 'store read',
    description: 'auth: null, one trivial read of the store: the floor of any lookup',
    target: null,
    shot: (credentials) => everyCredential('/api/health', credentials),
    refused: () => undefined,
    bodyIncludes: '"status":"ok"',
  },
  {
    path: '/api/bearer',
    kind: 'Bearer',
    description: 'HttpBearer: SHA-256 of the token, then the credential cache or one SELECT',
    target: 0.85,
    shot: (credentials) => everyCredential('/api/bearer', credentials),
    refused: () => ({ path: '/api/bearer', headers: {} }),
    bodyIncludes: '"token":',
  },
  {
    path: '/api/headerkey',
    kind: 'API key',
    description: 'APIKeyHeader X-API-Key: SHA-256 of the key, then the cache or one SELECT',
    target: 0.85,
    shot: (credentials) => everyCredential('/api/headerkey', credentials),
    refused: () => ({ path: '/api/headerkey', headers: {} }),
    bodyIncludes: 'Hello, bench-app',
  },
  {
    path: '/api/pets',
    kind: 'session',
    description: 'SessionAuth sessionid: SHA-256 of the id, then the cache or one SELECT',
    target: 0.8,
    shot: (credentials) => everyCredential('/api/pets', credentials),
    refused: () => ({ path: '/api/pets', headers: {} }),
    bodyIncludes: 'Pets of bench',
  },
];

/**
 * The routes as judged over `store`: on SQLite the targets above; on PostgreSQL (with or without
 * Redis) every authenticated route must keep 0.8× with the credential cache on, and with it off
 * the figures are recorded without a target.
 */
export function routesFor(store: BenchStore, cacheOff: boolean): readonly ServiceRoute[] {
  if (store === 'sqlite') return serviceRoutes;
  return serviceRoutes.map((route) =>
    route.target === null ? route : { ...route, target: cacheOff ? null : 0.8 },
  );
}
