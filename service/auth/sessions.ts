import type { SessionStore } from 'vouch/session';
import { digest, newSecret } from '../security/secrets.js';
import { mapAwaitable } from '../internal/map-awaitable.js';
import type { SessionTimeouts, Store, UserRecord } from '../store/store.js';

/**
 * vouch's session interface over the service store: ids are 256 random bits handed to the
 * browser; only their digests are stored.
 */
export function storeSessions(
  store: Store,
  timeouts: SessionTimeouts,
  now: () => number,
): SessionStore<UserRecord> {
  return {
    async create(user) {
      const id = newSecret();
      await store.createSession(digest(id), user.id, now());
      return id;
    },
    get(id) {
      return mapAwaitable(store.findSession(digest(id), now(), timeouts), (live) => live?.user);
    },
    destroy(id) {
      return store.deleteSession(digest(id));
    },
  };
}
