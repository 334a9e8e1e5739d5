import type { SessionStore } from 'vouch/session';
import type { CheckedLogin } from './check-login.js';
import { digest, newSecret } from '../security/secrets.js';
import { mapAwaitable } from '../internal/map-awaitable.js';
import type { SessionTimeouts, Store, UserRecord } from '../store/store.js';

/**
 * The service's sessions: vouch's interface, whose `create` names a user alone and is refused
 * here, and {@link UserSessions.start}, the one way a session begins.
 */
export interface UserSessions extends SessionStore<UserRecord> {
  /**
   * Starts a session for a password just checked, and returns its id; `undefined` when that
   * password is no longer the user's (changed while it was being checked) or the user was locked
   * or removed meanwhile.
   */
  start(checked: CheckedLogin): Promise<string | undefined>;
}

/**
 * Sessions over the service store: ids are 256 random bits handed to the browser; only their
 * digests are stored. A session is bound to the password it was started with: changing the
 * password ends it (see `Store.setUserPassword`).
 */
export function storeSessions(
  store: Store,
  timeouts: SessionTimeouts,
  now: () => number,
): UserSessions {
  return {
    async start({ user, passwordHash }) {
      const id = newSecret();
      const started = await store.createSession(digest(id), user.id, passwordHash, now());
      return started ? id : undefined;
    },
    // A session proves a password: one begun without a checked password would outlive a change.
    create: () => Promise.reject(new Error('a session starts from a checked password (start)')),
    get(id) {
      return mapAwaitable(store.findSession(digest(id), now(), timeouts), (live) => live?.user);
    },
    destroy(id) {
      return store.deleteSession(digest(id));
    },
  };
}
