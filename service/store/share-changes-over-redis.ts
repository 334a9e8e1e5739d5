import { formatChange, parseChange } from './change-message.js';
import type { ChangeWatcher, CredentialChange, Store } from './store.js';
import { keepAlive, type RedisConnection } from '../redis/open-redis.js';

/**
 * The pub/sub channel of one deployment: its key prefix, and its logical database, since
 * channels are server-wide and databases are not (`vouch:0:credentials` by default).
 */
export function changesChannel(redis: Pick<RedisConnection, 'keyPrefix' | 'database'>): string {
  return `${redis.keyPrefix}${redis.database}:credentials`;
}

/**
 * The store, with the changes that take a credential away shared over Redis pub/sub: each
 * revocation or logout made through it is published once committed, and `watchChanges` hears
 * every instance's (the CLI's too, when it is given the same `REDIS_URL`) from a subscriber
 * connection of its own. While Redis is unreachable or silent the watch is lost, so caches read
 * the database; a publication that fails then (within the connection's command timeout) is not
 * retried (the subscribers had lost their watch too, or forget at most `CREDENTIAL_CACHE_SECONDS`
 * later).
 */
export function shareChangesOverRedis(store: Store, redis: RedisConnection): Store {
  const channel = changesChannel(redis);
  const subscribers = new Set<() => void>();

  async function thenPublish<T>(write: Promise<T>, change: CredentialChange): Promise<T> {
    const result = await write;
    await redis.client.publish(channel, formatChange(change)).catch(() => {});
    return result;
  }

  return {
    ...store,
    async close() {
      for (const stop of subscribers) stop();
      subscribers.clear();
      await store.close();
    },
    revokeToken: (tokenDigest, now) =>
      thenPublish(store.revokeToken(tokenDigest, now), { kind: 'token', digest: tokenDigest }),
    // The digests stay in the database: forget them all, as for a lock.
    revokeUserTokens: (username, now) =>
      thenPublish(store.revokeUserTokens(username, now), { kind: 'all' }),
    revokeApplication: (id, now) =>
      thenPublish(store.revokeApplication(id, now), { kind: 'applications' }),
    // A change of grants changes what tokens and keys may do; grants are rare: forget them all.
    grantUserScope: (username, scope) =>
      thenPublish(store.grantUserScope(username, scope), { kind: 'all' }),
    revokeUserScope: (username, scope) =>
      thenPublish(store.revokeUserScope(username, scope), { kind: 'all' }),
    // A user's password, existence and lock decide its logins, tokens and sessions: forget them all.
    setUserPassword: (username, passwordHash) =>
      thenPublish(store.setUserPassword(username, passwordHash), { kind: 'all' }),
    removeUser: (username) => thenPublish(store.removeUser(username), { kind: 'all' }),
    lockUser: (username, now) => thenPublish(store.lockUser(username, now), { kind: 'all' }),
    unlockUser: (username) => thenPublish(store.unlockUser(username), { kind: 'all' }),
    grantApplicationScope: (id, scope) =>
      thenPublish(store.grantApplicationScope(id, scope), { kind: 'applications' }),
    revokeApplicationScope: (id, scope) =>
      thenPublish(store.revokeApplicationScope(id, scope), { kind: 'applications' }),
    deleteSession: (sessionDigest) =>
      thenPublish(store.deleteSession(sessionDigest), { kind: 'session', digest: sessionDigest }),
    watchChanges(watcher) {
      const stop = subscribe(redis, channel, watcher);
      subscribers.add(stop);
      return () => {
        subscribers.delete(stop);
        stop();
      };
    },
  };
}

/**
 * Listens on `channel` from a new connection: `ready` once subscribed, `lost` once when the
 * connection is cut or Redis falls silent (a PING unanswered within half a second: a subscriber
 * cannot tell a quiet channel from a deaf one otherwise), and `ready` again once it has
 * reconnected, Redis answers, and it has subscribed anew.
 */
function subscribe(redis: RedisConnection, channel: string, watcher: ChangeWatcher): () => void {
  const subscriber = redis.duplicate();
  let stopped = false;
  // Whether `lost` was said since the last `ready` (or since the start).
  let lost = false;
  // Bumped by every loss: a subscription confirmed after one does not make the watch ready.
  let losses = 0;
  const lose = (error: unknown) => {
    losses += 1;
    if (stopped || lost) return;
    lost = true;
    watcher.lost(error instanceof Error ? error : new Error(String(error)));
  };
  subscriber.on('error', lose);
  subscriber.on('close', () => {
    lose(new Error('the connection to Redis closed'));
  });
  subscriber.on('ready', () => {
    const since = losses;
    subscriber.subscribe(channel).then(
      () => {
        if (stopped || since !== losses) return;
        lost = false;
        watcher.ready();
      },
      (error: unknown) => {
        lose(error);
        // Not subscribed, though connected (Redis fell silent meanwhile): connect anew.
        if (!stopped && subscriber.status === 'ready') subscriber.disconnect(true);
      },
    );
  });
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) watcher.changed(parseChange(message));
  });
  const stopHeartbeat = keepAlive(subscriber, lose);
  subscriber.connect().catch(lose);
  return () => {
    stopped = true;
    stopHeartbeat();
    subscriber.disconnect();
  };
}
