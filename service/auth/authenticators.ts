import type { FastifyRequest } from 'fastify';
import {
  APIKeyCookie,
  APIKeyHeader,
  APIKeyQuery,
  authFunction,
  HttpBasic,
  HttpBearer,
  OAuth2PasswordBearer,
} from 'vouch';
import { SessionAuth } from 'vouch/session';
import { clientAddress, type Config } from '../config/config.js';
import { signInSource, type LoginGuard } from './login-guard.js';
import { digest } from '../security/secrets.js';
import { storeSessions } from './sessions.js';
import { mapAwaitable } from '../internal/map-awaitable.js';
import type { Store } from '../store/store.js';

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

  // The store may answer at once (from memory) or later. The auth value is the token with the
  // scopes it may use now, where the library's scope check reads them.
  const refused = new WeakSet<FastifyRequest>();
  const token = (request: FastifyRequest, token: string) =>
    mapAwaitable(store.findToken(digest(token), now()), (live) => {
      if (live !== undefined) return { token, scopes: live.scopes };
      refused.add(request);
      return undefined;
    });
  // Each is documented under a plain name of its own, listed in this order under Authorize.
  const bearer = new HttpBearer({
    name: 'bearer',
    description: 'A token from POST /api/token',
    // Every credential below is looked up in the database: its outage answers 503, documented.
    consultsStore: true,
    authenticate: token,
  });
  // The same tokens, documented as the OAuth2 password flow: the docs page signs in with a
  // username and password at /api/token, then sends the token. Listed after `bearer`, it only
  // runs for a token `bearer` refused, and refuses it without asking the store again.
  const oauth2 = new OAuth2PasswordBearer({
    name: 'oauth2',
    tokenUrl: '/api/token',
    scopes: { admin: 'List every user (GET /api/admin/users)' },
    description: 'Sign in with a username and password; the page then sends the token',
    consultsStore: true,
    authenticate: (request, presented) =>
      refused.has(request) ? undefined : token(request, presented),
  });
  // The user, with its grants of the moment as its scopes, as a key has: unlike a token, a
  // password was issued no scopes of its own. Verified once, it is recognised from memory until
  // a user or a grant changes.
  const basic = new HttpBasic({
    name: 'basic',
    description: "A username and password; the user's grants are its scopes",
    consultsStore: true,
    authenticate: (request, username, password) =>
      login.recognise(signInSource(request), username, password),
  });
  const sessions = storeSessions(
    store,
    { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
    now,
  );
  const session = new SessionAuth({
    name: 'session',
    store: sessions,
    description: 'The session cookie set by POST /api/auth/login',
  });
  const key = (name: string, paramName: string, where: string) => ({
    name,
    paramName,
    description: `An application key in the ${where}`,
    consultsStore: true,
    authenticate: application,
  });
  const headerKey = new APIKeyHeader(key('apiKeyHeader', 'X-API-Key', 'X-API-Key header'));
  const queryKey = new APIKeyQuery(key('apiKeyQuery', 'api_key', 'api_key query parameter'));
  const cookieKey = new APIKeyCookie(key('apiKeyCookie', 'X-API-KEY', 'X-API-KEY cookie'));
  const multipleQuery = new APIKeyQuery(key('keyQuery', 'key', 'key query parameter'));
  const multipleHeader = new APIKeyHeader(key('keyHeader', 'key', 'key header'));
  const ipAllowList = authFunction(
    (request: FastifyRequest) => {
      const { address, type } = clientAddress(request.ip);
      return config.ipAllowlist.check(address, type) ? address : undefined;
    },
    { name: 'ipAllowList' },
  );
  return {
    bearer,
    oauth2,
    basic,
    session,
    /** Where sign-in starts sessions, bound to the password it checked. */
    sessions,
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
