import type { FastifyRequest } from 'fastify';
import {
  APIKeyCookie,
  APIKeyHeader,
  APIKeyQuery,
  authFunction,
  HttpBasic,
  HttpBearer,
} from 'vouch';
import { SessionAuth } from 'vouch/session';
import { clientAddress, type Config } from './config.js';
import type { LoginGuard } from './login-guard.js';
import { digest } from './security/secrets.js';
import { storeSessions } from './sessions.js';
import { mapAwaitable, type Store } from './store/store.js';

/** Everything the authenticators need. */
export interface AuthenticatorDeps {
  readonly config: Config;
  readonly store: Store;
  readonly login: LoginGuard;
  readonly now: () => number;
}

/**
 * The service's authenticators, one per illustrated kind, each over the real store: tokens,
 * users, application keys and sessions are looked up by digest.
 */
export function createAuthenticators({ config, store, login, now }: AuthenticatorDeps) {
  // Keys are issued with the vk_ prefix; anything else cannot be one, so the store is spared.
  const application = (_request: FastifyRequest, key: string) =>
    key.startsWith('vk_') ? store.findApplicationByKey(digest(key)) : undefined;

  const bearer = new HttpBearer({
    description: 'A token from POST /api/token',
    // The store may answer at once (from memory) or later; a found token is the auth value.
    authenticate: (_request, token) =>
      mapAwaitable(store.findToken(digest(token), now()), (live) =>
        live === undefined ? undefined : token,
      ),
  });
  const basic = new HttpBasic({
    description: 'A username and password',
    authenticate: async (request, username, password) =>
      (await login.check(request.ip, username, password))?.username,
  });
  const session = new SessionAuth({
    store: storeSessions(
      store,
      { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
      now,
    ),
    description: 'The session cookie set by POST /api/auth/login',
  });
  const queryKey = new APIKeyQuery({ paramName: 'api_key', authenticate: application });
  const headerKey = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: application });
  const cookieKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: application });
  const multipleQuery = new APIKeyQuery({ paramName: 'key', authenticate: application });
  const multipleHeader = new APIKeyHeader({ paramName: 'key', authenticate: application });
  const ipAllowList = authFunction(
    (request: FastifyRequest) => {
      const { address, type } = clientAddress(request.ip);
      return config.ipAllowlist.check(address, type) ? address : undefined;
    },
    { name: 'ipAllowList' },
  );
  return {
    bearer,
    basic,
    session,
    queryKey,
    headerKey,
    cookieKey,
    multipleQuery,
    multipleHeader,
    ipAllowList,
  };
}

/** The authenticators of one service instance. */
export type Authenticators = ReturnType<typeof createAuthenticators>;
