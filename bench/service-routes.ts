import type { Shot } from './load.js';
import type { Compared } from './report.js';
import type { ServiceCredentials } from './service-process.js';

/** A route of the service under load: how it is compared and what it must answer. */
export interface ServiceRoute extends Compared {
  /** The request with its credential. */
  shot(credentials: ServiceCredentials): Shot;
  /** The same request without the credential, which must answer 401 (none for public routes). */
  refused(credentials: ServiceCredentials): Shot | undefined;
  /** Something the body must contain, so that the timed answer is the real one. */
  readonly bodyIncludes: string;
}

/**
 * The routes compared, baseline first: `/api/version` has no authentication and no store
 * access; `/api/health` reads the store once without authentication, to show what any lookup
 * costs; the others authenticate against the real database on every request.
 */
export const serviceRoutes: readonly ServiceRoute[] = [
  {
    path: '/api/version',
    kind: 'baseline',
    description: 'auth: null, no store access',
    target: null,
    shot: () => ({ path: '/api/version', headers: {} }),
    refused: () => undefined,
    bodyIncludes: '"name":"vouch"',
  },
  {
    path: '/api/health',
    kind: 'store read',
    description: 'auth: null, one trivial read (SELECT 1 FROM settings): the floor of any lookup',
    target: null,
    shot: () => ({ path: '/api/health', headers: {} }),
    refused: () => undefined,
    bodyIncludes: '"status":"ok"',
  },
  {
    path: '/api/bearer',
    kind: 'Bearer',
    description: 'HttpBearer: SHA-256 of the token, one SELECT (token ⋈ user)',
    target: 0.85,
    shot: ({ token }) => ({ path: '/api/bearer', headers: { authorization: `Bearer ${token}` } }),
    refused: () => ({ path: '/api/bearer', headers: {} }),
    bodyIncludes: '"token":',
  },
  {
    path: '/api/headerkey',
    kind: 'API key',
    description: 'APIKeyHeader X-API-Key: SHA-256 of the key, one SELECT',
    target: 0.85,
    shot: ({ apiKey }) => ({ path: '/api/headerkey', headers: { 'x-api-key': apiKey } }),
    refused: () => ({ path: '/api/headerkey', headers: {} }),
    bodyIncludes: 'Hello, bench-app',
  },
  {
    path: '/api/pets',
    kind: 'session',
    description: 'SessionAuth sessionid: SHA-256 of the id, one SELECT (session ⋈ user)',
    target: 0.8,
    shot: ({ sessionId }) => ({ path: '/api/pets', headers: { cookie: `sessionid=${sessionId}` } }),
    refused: () => ({ path: '/api/pets', headers: {} }),
    bodyIncludes: 'Pets of bench',
  },
];
