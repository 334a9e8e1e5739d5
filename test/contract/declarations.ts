// The application every adapter builds for the contract suite, declared once without an engine.
import {
  allOf,
  APIKeyCookie,
  APIKeyHeader,
  APIKeyQuery,
  AuthenticationError,
  AuthorizationError,
  HttpBasic,
  HttpBearer,
  StoreUnavailableError,
  type AuthSpec,
  type RequestView,
} from '../../src/index.js';

/** An error of the application's own, with an exception handler registered for it. */
export class TeapotError extends Error {}

export const bearer = new HttpBearer({
  authenticate: (_request, token) => {
    switch (token) {
      case 'good-token':
        return { user: 'ann' };
      case 'expired':
        throw new AuthenticationError('Token expired');
      case 'denied':
        throw new AuthorizationError();
      case 'down':
        throw new StoreUnavailableError('pool exhausted', { retryAfter: 7 });
      case 'boom':
        throw new Error('secret internals');
      case 'string':
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what some code does
        throw 'not an error';
      case 'teapot':
        throw new TeapotError();
      default:
        return undefined;
    }
  },
});
export const basic = new HttpBasic({
  authenticate: (_request, username, password) =>
    (username === 'ann' && password === 'sec:ret') || (username === 'zoë' && password === 'pw')
      ? username
      : undefined,
});
export const queryKey = new APIKeyQuery({
  paramName: 'api_key',
  keys: new Map([['query-key', 'query-app']]),
});
export const headerKey = new APIKeyHeader({
  paramName: 'X-API-Key',
  keys: new Map([['header-key', 'header-app']]),
});
export const cookieKey = new APIKeyCookie({
  paramName: 'X-API-KEY',
  keys: new Map([['cookie-key', 'cookie-app']]),
});
export function robot(request: RequestView): string | undefined {
  return request.headers['x-client'] === 'robot' ? 'robot' : undefined;
}

/** One route: `auth` undefined inherits from its group or the app. */
export interface RouteDeclaration {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly auth?: AuthSpec;
}

/** Routes mounted under a prefix with their own `auth` (a Fastify router, a Hono sub-app). */
export interface GroupDeclaration {
  readonly prefix: string;
  readonly auth: AuthSpec;
  readonly routes: readonly RouteDeclaration[];
}

/** The whole application: app-wide `auth`, routes and groups. Every handler answers its auth. */
export interface AppDeclaration {
  readonly auth: AuthSpec;
  readonly routes: readonly RouteDeclaration[];
  readonly groups: readonly GroupDeclaration[];
  /** The response of the registered exception handler for {@link TeapotError}. */
  readonly teapot: { readonly status: 418; readonly detail: string };
}

export const app: AppDeclaration = {
  auth: bearer,
  routes: [
    { method: 'GET', path: '/inherit' },
    { method: 'POST', path: '/inherit' },
    { method: 'GET', path: '/bearer', auth: bearer },
    { method: 'GET', path: '/basic', auth: basic },
    { method: 'GET', path: '/query', auth: queryKey },
    { method: 'GET', path: '/header', auth: headerKey },
    { method: 'GET', path: '/cookie', auth: cookieKey },
    { method: 'GET', path: '/function', auth: robot },
    { method: 'GET', path: '/multiple', auth: [queryKey, headerKey] },
    { method: 'GET', path: '/both', auth: allOf(bearer, headerKey) },
    { method: 'GET', path: '/public', auth: null },
  ],
  groups: [
    {
      prefix: '/events',
      auth: headerKey,
      routes: [
        { method: 'GET', path: '/list' },
        { method: 'GET', path: '/open', auth: null },
        { method: 'GET', path: '/basic', auth: basic },
      ],
    },
  ],
  teapot: { status: 418, detail: "I'm a teapot" },
};
