// The credential cache over each real engine (SQLite, PostgreSQL), with another connection to
// the same database standing for another process (the CLI, a second instance). The engines
// always answer with a promise, so an answer that is not a promise came from memory.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Awaitable } from 'vouch';
import { storeEngines, type TestDatabase } from '../../test/helpers/store-engines.js';
import { cacheCredentials, type CredentialCacheOptions } from './credential-cache.js';
import type { ChangeWatcher, LiveLogin, Store, UserRecord } from './store.js';
import { until } from '../../test/helpers/wait.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const timeouts = { idleMs: 10 * MINUTE, absoluteMs: HOUR };

interface Fixture {
  readonly store: Store;
  /** The database, for another connection's SQL: what another process would do. */
  readonly db: TestDatabase;
  readonly alice: UserRecord;
  /** The watcher the cache gave the engine, to play the engine's part in a test. */
  readonly watcher: ChangeWatcher;
}

// Lookups a test only looked at, to be settled before its database goes away.
const looking = new Set<Promise<unknown>>();

/** Whether the answer came from memory. */
function fromMemory(answer: Awaitable<unknown>): boolean {
  if (!(answer instanceof Promise)) return true;
  looking.add(answer);
  const settled = () => looking.delete(answer);
  answer.then(settled, settled);
  return false;
}

/**
 * Verifies `login` under `key` until it is remembered: a notice of an earlier change may still be
 * on its way (PostgreSQL announces the store's own writes too), and would forget it.
 */
async function remembered(store: Store, key: string, login: LiveLogin): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    await store.rememberLogin(key, () => Promise.resolve(login));
    if (store.recallLogin(key) !== undefined) return;
    if (Date.now() > deadline) assert.fail(`${key} is never remembered`);
    await sleep(5);
  }
}

/** Settles the lookups the test left, before anything else closes. */
function settleLookups(t: TestContext): void {
  t.after(() => Promise.allSettled(looking));
}

for (const engine of storeEngines) {
  describe(`the credential cache on ${engine.name}`, () => {
    /**
     * The cache over a fresh database of this engine, once the engine's watch is ready; `undefined`
     * when the test was skipped. `wrap` may change the engine as the cache sees it.
     */
    async function fixture(
      t: TestContext,
      options: Partial<CredentialCacheOptions> = {},
      wrap: (engine: Store) => Store = (engine) => engine,
    ): Promise<Fixture | undefined> {
      settleLookups(t);
      const db = await engine.create(t);
      if (db === undefined) return undefined;
      const inner = wrap(await db.open());
      let given: ChangeWatcher | undefined;
      let ready = false;
      const store = cacheCredentials(
        {
          ...inner,
          watchChanges(watcher) {
            given = watcher;
            return inner.watchChanges({
              ...watcher,
              ready() {
                ready = true;
                watcher.ready();
              },
            });
          },
        },
        { ttlMs: HOUR, ...options },
      );
      t.after(() => store.close());
      await until(() => ready, "the engine's watch is ready");
      const alice = await store.createUser('alice', 'h', 0);
      return { store, db, alice, watcher: given! };
    }

    it('a grant withdrawn through it is forgotten at once by tokens and keys', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.grantUserScope('alice', 'admin');
      await store.createToken('token', alice.id, HOUR, 0, ['admin']);
      const app = await store.createApplication('billing', 'vk_abcd1234', 'key', 0);
      await store.grantApplicationScope(app.id, 'admin');
      assert.deepEqual((await store.findToken('token', 1))?.scopes, ['admin']);
      assert.deepEqual((await store.findApplicationByKey('key'))?.scopes, ['admin']);
      // PostgreSQL announces the grants too, a moment later: wait until both stay in memory.
      await until(
        () =>
          fromMemory(store.findToken('token', 2)) && fromMemory(store.findApplicationByKey('key')),
        'the token and the key are kept',
      );

      await store.revokeUserScope('alice', 'admin');
      await store.revokeApplicationScope(app.id, 'admin');
      assert.deepEqual((await store.findToken('token', 3))?.scopes, []);
      assert.deepEqual((await store.findApplicationByKey('key'))?.scopes, []);
      // Granted again: the key has it at once; the token issued before never again, a new one has.
      await store.grantUserScope('alice', 'admin');
      await store.grantApplicationScope(app.id, 'admin');
      assert.deepEqual((await store.findToken('token', 4))?.scopes, []);
      assert.deepEqual((await store.findApplicationByKey('key'))?.scopes, ['admin']);
      await store.createToken('new', alice.id, HOUR, 4, ['admin']);
      assert.deepEqual((await store.findToken('new', 5))?.scopes, ['admin']);
    });

    it('a found token, key and session are answered from memory on the next lookup', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createToken('token', alice.id, HOUR, 0);
      const app = await store.createApplication('billing', 'vk_abcd1234', 'key', 0);
      await store.createSession('session', alice.id, 'h', 0);

      const token = store.findToken('token', 1);
      assert.equal(fromMemory(token), false, 'the first lookup reads the store');
      assert.deepEqual(await token, { user: alice, expiresAt: HOUR, scopes: [] });
      const again = store.findToken('token', 2);
      assert.equal(fromMemory(again), true);
      assert.deepEqual(again, { user: alice, expiresAt: HOUR, scopes: [] });

      assert.deepEqual(await store.findApplicationByKey('key'), app);
      const key = store.findApplicationByKey('key');
      assert.equal(fromMemory(key), true);
      assert.deepEqual(key, app);

      assert.deepEqual(await store.findSession('session', 1, timeouts), {
        user: alice,
        createdAt: 0,
        lastSeenAt: 0,
      });
      const session = store.findSession('session', 2, timeouts);
      assert.equal(fromMemory(session), true);
      assert.deepEqual(session, { user: alice, createdAt: 0, lastSeenAt: 0 });
    });

    it('a verified login is recalled from memory; a refused one is not kept', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      const login = { user: alice, scopes: ['admin'] };
      let checks = 0;
      const verify = (answer: typeof login | undefined) => () => {
        checks += 1;
        return Promise.resolve(answer);
      };
      assert.equal(store.recallLogin('right'), undefined);
      assert.deepEqual(await store.rememberLogin('right', verify(login)), login);
      assert.deepEqual(store.recallLogin('right'), login);
      assert.equal(await store.rememberLogin('wrong', verify(undefined)), undefined);
      assert.equal(store.recallLogin('wrong'), undefined);
      assert.equal(checks, 2);
      // Kinds never mix: a login's digest is no token.
      assert.equal(await store.findToken('right', 1), undefined);
    });

    it('logins are forgotten at once by any change to a user or a grant made through it', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      const bob = await store.createUser('bob', 'h', 0);
      const remember = () => remembered(store, 'alice', { user: alice, scopes: [] });
      const changes: [string, () => Promise<unknown>][] = [
        ['a grant', () => store.grantUserScope('alice', 'admin')],
        ['a grant withdrawn', () => store.revokeUserScope('alice', 'admin')],
        ['a new password', () => store.setUserPassword('alice', 'new-hash')],
        ['a lock', () => store.lockUser('alice', 1)],
        ['an unlock', () => store.unlockUser('alice')],
        // Another user's removal: logins are not kept per user, so all of them go.
        ['a removal', () => store.removeUser(bob.username)],
      ];
      for (const [what, change] of changes) {
        await remember();
        await change();
        assert.equal(store.recallLogin('alice'), undefined, what);
      }
      // Nothing else a store does forgets them (once the notices of the changes above are in).
      await sleep(200);
      await remember();
      await store.createToken('token', alice.id, HOUR, 0);
      await store.revokeToken('token', 1);
      const app = await store.createApplication('billing', 'vk_1', 'key', 0);
      await store.revokeApplication(app.id, 1);
      await store.createSession('session', alice.id, 'new-hash', 0);
      await store.deleteSession('session');
      await sleep(200);
      assert.notEqual(store.recallLogin('alice'), undefined);
    });

    it("another connection's change to a user or a grant forgets logins once reported", async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, db, alice } = fixed;
      const changes: [string, string][] = [
        ['a new password', "UPDATE users SET password_hash = 'new' WHERE username = 'alice'"],
        ['a lock', "UPDATE users SET locked_at = 1 WHERE username = 'alice'"],
        ['a grant', `INSERT INTO user_scopes (user_id, scope) VALUES (${alice.id}, 'admin')`],
        ['a grant withdrawn', "DELETE FROM user_scopes WHERE scope = 'admin'"],
        ['a removal', "DELETE FROM users WHERE username = 'alice'"],
      ];
      for (const [what, sql] of changes) {
        await remembered(store, 'alice', { user: alice, scopes: [] });
        await db.sql(sql);
        await until(() => store.recallLogin('alice') === undefined, `${what} forgets it`);
      }
    });

    it('a login verified while anything was forgotten is not kept', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      // The password is checked against the old hash; the new one is committed meanwhile.
      const verifying = store.rememberLogin('alice', async () => {
        await store.setUserPassword('alice', 'new-hash');
        return { user: alice, scopes: [] };
      });
      assert.deepEqual(await verifying, { user: alice, scopes: [] }, 'answered once');
      assert.equal(store.recallLogin('alice'), undefined, 'never again');
    });

    it('a login verified while a token or a session was forgotten is kept: kinds apart', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createToken('token', alice.id, HOUR, 0);
      await store.createSession('session', alice.id, 'h', 0);
      // PostgreSQL announces the store's own writes a moment later (alice's forgets every login).
      await sleep(200);
      await remembered(store, 'settled', { user: alice, scopes: [] });
      const verifying = store.rememberLogin('alice', async () => {
        await store.revokeToken('token', 1);
        await store.deleteSession('session');
        return { user: alice, scopes: [] };
      });
      assert.deepEqual(await verifying, { user: alice, scopes: [] });
      assert.deepEqual(store.recallLogin('alice'), { user: alice, scopes: [] });
      // A lock forgets the logins, and one verified meanwhile is not kept.
      const beside = store.rememberLogin('carol', async () => {
        await store.lockUser('alice', 2);
        return { user: alice, scopes: [] };
      });
      assert.notEqual(await beside, undefined);
      assert.equal(store.recallLogin('carol'), undefined);
      assert.equal(store.recallLogin('alice'), undefined);
    });

    it('a login is due for renewal within its last 2 s in memory, not before, not once gone', async (t) => {
      const fixed = await fixture(t, { ttlMs: 2500 });
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      const login = { user: alice, scopes: [] };
      assert.equal(store.loginNeedsRenewal('alice'), false, 'nothing remembered');
      await remembered(store, 'alice', login);
      const since = performance.now();
      assert.equal(store.loginNeedsRenewal('alice'), false, 'just verified');
      await until(() => store.loginNeedsRenewal('alice'), 'due for renewal', 5000);
      assert.ok(performance.now() - since >= 450, 'not within its first half second');
      assert.deepEqual(store.recallLogin('alice'), login, 'still remembered meanwhile');
      // Verified again, it is remembered afresh.
      await store.rememberLogin('alice', () => Promise.resolve(login));
      assert.equal(store.loginNeedsRenewal('alice'), false, 'renewed');
      await until(() => store.recallLogin('alice') === undefined, 'forgotten for its age', 5000);
      assert.equal(store.loginNeedsRenewal('alice'), false, 'gone');
    });

    it('unknown credentials are not kept: one created afterwards is found', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      for (let i = 0; i < 3; i++) {
        const answer = store.findToken('later', 1);
        assert.equal(fromMemory(answer), false);
        assert.equal(await answer, undefined);
      }
      assert.equal(await store.findApplicationByKey('later'), undefined);
      assert.equal(await store.findSession('later', 1, timeouts), undefined);
      await store.createToken('later', alice.id, HOUR, 1);
      await store.createApplication('late app', 'vk_late', 'later', 1);
      await store.createSession('later', alice.id, 'h', 1);
      assert.equal((await store.findToken('later', 2))?.user.username, 'alice');
      assert.equal((await store.findApplicationByKey('later'))?.name, 'late app');
      assert.equal((await store.findSession('later', 2, timeouts))?.user.username, 'alice');
    });

    it('revoking a token or a key, or deleting a session, is seen by the very next lookup', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createToken('token', alice.id, HOUR, 0);
      await store.createToken('other token', alice.id, HOUR, 0);
      const app = await store.createApplication('billing', 'vk_1', 'key', 0);
      await store.createApplication('reports', 'vk_2', 'other key', 0);
      await store.createSession('session', alice.id, 'h', 0);
      for (const lookup of [1, 2]) {
        await store.findToken('token', lookup);
        await store.findToken('other token', lookup);
        await store.findApplicationByKey('key');
        await store.findApplicationByKey('other key');
        await store.findSession('session', lookup, timeouts);
      }

      assert.equal(await store.revokeToken('token', 3), true);
      assert.equal(await store.findToken('token', 3), undefined);
      assert.equal(fromMemory(store.findToken('other token', 3)), true, 'other tokens stay');

      assert.equal(await store.revokeApplication(app.id, 3), true);
      assert.equal(await store.findApplicationByKey('key'), undefined);
      assert.equal((await store.findApplicationByKey('other key'))?.name, 'reports');

      await store.deleteSession('session');
      assert.equal(await store.findSession('session', 3, timeouts), undefined);
    });

    it("revoking a user's tokens through it is seen by the very next lookup", async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      const bob = await store.createUser('bob', 'h', 0);
      await store.createToken('laptop', alice.id, HOUR, 0);
      await store.createToken('phone', alice.id, HOUR, 0);
      await store.createToken('bob', bob.id, HOUR, 0);
      const found = (digest: string) => store.findToken(digest, 1);
      await until(
        () => ['laptop', 'phone', 'bob'].every((digest) => fromMemory(found(digest))),
        'the tokens are kept',
      );

      assert.equal(await store.revokeUserTokens('alice', 1), 2);
      assert.equal(await found('laptop'), undefined);
      assert.equal(await found('phone'), undefined);
      assert.deepEqual((await found('bob'))?.user, bob);
    });

    it('a cached token is refused from the instant it expires', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createToken('token', alice.id, 100, 0);
      await store.findToken('token', 1);
      assert.equal(fromMemory(store.findToken('token', 99)), true);
      assert.equal(await store.findToken('token', 100), undefined);
      assert.equal(fromMemory(store.findToken('token', 99)), false, 'and it is forgotten');
    });

    it('nothing is kept longer than ttlMs, even while the event loop is held up', async (t) => {
      const fixed = await fixture(t, { ttlMs: 30 });
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createToken('token', alice.id, HOUR, 0);
      await store.findToken('token', 1);
      assert.equal(fromMemory(store.findToken('token', 1)), true);
      // Past ttlMs without yielding: no timer runs meanwhile, and none may be needed to tell.
      const held = performance.now() + 60;
      while (performance.now() < held);
      assert.equal(fromMemory(store.findToken('token', 1)), false);
    });

    it('a cached session still dies of its timeouts and still has its idle clock written', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, db, alice } = fixed;
      const lastSeen = async (digest: string) =>
        (
          await db.sql<{ last_seen_at: number }>(
            'SELECT last_seen_at FROM sessions WHERE digest = $1',
            digest,
          )
        )[0]?.last_seen_at;
      await store.createSession('idle', alice.id, 'h', 0);
      await store.findSession('idle', 1, timeouts);
      assert.equal(fromMemory(store.findSession('idle', MINUTE - 1, timeouts)), true);
      // A minute (a tenth of the idle timeout) after the last write, the store writes it again.
      const refreshed = store.findSession('idle', MINUTE, timeouts);
      assert.equal(fromMemory(refreshed), false);
      assert.equal((await refreshed)?.lastSeenAt, MINUTE);
      assert.equal(await lastSeen('idle'), MINUTE);
      assert.equal(fromMemory(store.findSession('idle', MINUTE + 1, timeouts)), true);
      // Idle for ten minutes since that write: dead, and deleted.
      assert.equal(await store.findSession('idle', 11 * MINUTE, timeouts), undefined);
      assert.equal(await lastSeen('idle'), undefined);

      // However busy, a session dies an hour after login, even with its idle clock just written.
      await store.createSession('busy', alice.id, 'h', 0);
      for (let now = 0; now < HOUR; now += 5 * MINUTE) {
        assert.equal(
          (await store.findSession('busy', now, timeouts))?.user.id,
          alice.id,
          `at ${now}`,
        );
      }
      assert.equal(
        (await store.findSession('busy', HOUR - MINUTE / 2, timeouts))?.lastSeenAt,
        HOUR - MINUTE / 2,
      );
      assert.equal(await store.findSession('busy', HOUR, timeouts), undefined);
    });

    it("kinds never mix: a session's digest is no token and no key", async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createSession('shared', alice.id, 'h', 0);
      await store.findSession('shared', 1, timeouts);
      assert.equal(await store.findToken('shared', 1), undefined);
      assert.equal(await store.findApplicationByKey('shared'), undefined);
    });

    it('a revocation by another connection, even by hand in SQL, is forgotten once reported', async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, db, alice } = fixed;
      await store.createToken('token', alice.id, HOUR, 0);
      await store.createToken('revoked', alice.id, HOUR, 0);
      const app = await store.createApplication('billing', 'vk_1', 'key', 0);
      for (let i = 0; i < 2; i++) {
        await store.findToken('token', 1);
        await store.findToken('revoked', 1);
        await store.findApplicationByKey('key');
      }
      assert.equal(fromMemory(store.findApplicationByKey('key')), true);

      await db.sql('UPDATE applications SET revoked_at = 2 WHERE id = $1', app.id);
      await until(() => !fromMemory(store.findApplicationByKey('key')), 'the key is read again');
      assert.equal(await store.findApplicationByKey('key'), undefined);
      await db.sql("UPDATE tokens SET revoked_at = 2 WHERE digest = 'revoked'");
      await until(() => !fromMemory(store.findToken('revoked', 2)), 'the token is read again');
      assert.equal(await store.findToken('revoked', 2), undefined);
      // SQLite can only say that something changed; PostgreSQL says what.
      assert.equal(
        fromMemory(store.findToken('token', 2)),
        engine.name === 'PostgreSQL',
        'another token is kept only where the engine names what changed',
      );
    });

    it("the store's own commits make the cache forget nothing", async (t) => {
      const fixed = await fixture(t);
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createToken('token', alice.id, HOUR, 0);
      await store.findToken('token', 1);
      await store.createUser('bob', 'h', 1);
      await store.createSession('session', alice.id, 'h', 1);
      // Long enough for any notice of those commits to arrive and be settled.
      await sleep(200);
      assert.equal(fromMemory(store.findToken('token', 2)), true);
    });

    it('a lookup under way when something is forgotten keeps nothing', async (t) => {
      // An engine that answers late, as one over the network does: the row is read at once (before
      // the revocation), and the answer arrives after the revocation has completed.
      const fixed = await fixture(t, {}, (inner) => ({
        ...inner,
        findApplicationByKey(keyDigest) {
          const answer = inner.findApplicationByKey(keyDigest);
          return sleep(20).then(() => answer);
        },
      }));
      if (fixed === undefined) return;
      const { store } = fixed;
      const app = await store.createApplication('billing', 'vk_1', 'key', 0);
      const racing = store.findApplicationByKey('key');
      assert.equal(await store.revokeApplication(app.id, 1), true);
      assert.deepEqual(await racing, app, 'read before the revocation');
      const next = store.findApplicationByKey('key');
      assert.equal(fromMemory(next), false, 'the stale answer was not kept');
      assert.equal(await next, undefined);
    });

    it('nothing is kept longer than ttlMs', async (t) => {
      const fixed = await fixture(t, { ttlMs: 30 });
      if (fixed === undefined) return;
      const { store, alice } = fixed;
      await store.createToken('token', alice.id, HOUR, 0);
      await store.findToken('token', 1);
      await store.rememberLogin('login', () => Promise.resolve({ user: alice, scopes: [] }));
      assert.equal(fromMemory(store.findToken('token', 1)), true);
      assert.notEqual(store.recallLogin('login'), undefined);
      await sleep(60);
      assert.equal(fromMemory(store.findToken('token', 1)), false);
      assert.equal(store.recallLogin('login'), undefined, 'however often it is recalled');
    });

    it('at most maxEntries of each kind are kept, the least recently used going first', async (t) => {
      const fixed = await fixture(t, { maxEntries: 2 });
      if (fixed === undefined) return;
      const { store } = fixed;
      for (const key of ['a', 'b', 'c']) await store.createApplication(key, `vk_${key}`, key, 0);
      for (const key of ['a', 'b', 'c']) await store.findApplicationByKey(key);
      assert.equal(fromMemory(store.findApplicationByKey('c')), true);
      assert.equal(fromMemory(store.findApplicationByKey('b')), true);
      assert.equal(fromMemory(store.findApplicationByKey('a')), false);
      // Logins are a kind of their own, bounded alike.
      const alice = { user: fixed.alice, scopes: [] };
      for (const key of ['a', 'b', 'c'])
        await store.rememberLogin(key, () => Promise.resolve(alice));
      assert.equal(store.recallLogin('a'), undefined);
      assert.deepEqual(store.recallLogin('b'), alice);
      assert.deepEqual(store.recallLogin('c'), alice);
    });

    it('while the store cannot report changes the cache is off, and says so; then on again', async (t) => {
      const events: string[] = [];
      const fixed = await fixture(t, {
        onDisabled: (error) => events.push(`off: ${error.message}`),
        onEnabled: () => events.push('on'),
      });
      if (fixed === undefined) return;
      const { store, watcher } = fixed;
      await store.createApplication('billing', 'vk_1', 'key', 0);
      await store.findApplicationByKey('key');
      assert.equal(fromMemory(store.findApplicationByKey('key')), true);

      await store.rememberLogin('login', () => Promise.resolve({ user: fixed.alice, scopes: [] }));
      watcher.lost(new Error('watch lost'));
      watcher.lost(new Error('still lost'));
      assert.equal(store.recallLogin('login'), undefined, 'logins are forgotten too');
      await store.rememberLogin('login', () => Promise.resolve({ user: fixed.alice, scopes: [] }));
      assert.equal(store.recallLogin('login'), undefined, 'and none kept meanwhile');
      assert.deepEqual(events, ['off: watch lost'], 'said once');
      for (let i = 0; i < 3; i++) {
        const answer = store.findApplicationByKey('key');
        assert.equal(fromMemory(answer), false);
        assert.equal((await answer)?.name, 'billing');
      }

      watcher.ready();
      assert.deepEqual(events, ['off: watch lost', 'on']);
      await store.findApplicationByKey('key');
      assert.equal(fromMemory(store.findApplicationByKey('key')), true);
    });

    it('while a change is pending nothing is served from memory, and nothing is said', async (t) => {
      const events: string[] = [];
      const fixed = await fixture(t, {
        onDisabled: () => events.push('off'),
        onEnabled: () => events.push('on'),
      });
      if (fixed === undefined) return;
      const { store, watcher } = fixed;
      await store.createApplication('billing', 'vk_1', 'key', 0);
      await store.findApplicationByKey('key');
      assert.equal(fromMemory(store.findApplicationByKey('key')), true);
      watcher.pending();
      for (let i = 0; i < 2; i++)
        assert.equal(fromMemory(store.findApplicationByKey('key')), false);
      watcher.ready();
      await store.findApplicationByKey('key');
      assert.equal(fromMemory(store.findApplicationByKey('key')), true);
      assert.deepEqual(events, [], 'a pending change is no outage');
    });

    it('nothing is kept before the store says its watch is ready', async (t) => {
      settleLookups(t);
      const db = await engine.create(t);
      if (db === undefined) return;
      const inner = await db.open();
      const store = cacheCredentials({ ...inner, watchChanges: () => () => {} }, { ttlMs: HOUR });
      t.after(() => store.close());
      await store.createApplication('billing', 'vk_1', 'key', 0);
      for (let i = 0; i < 3; i++) {
        const answer = store.findApplicationByKey('key');
        assert.equal(fromMemory(answer), false);
        assert.equal((await answer)?.name, 'billing');
      }
    });
  });
}
