// The Store contract, written once and run against every engine (SQLite, PostgreSQL), each test
// on a fresh real database; another connection stands for the CLI or another instance.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from 'vouch';
import { storeEngines, type TestDatabase } from '../../test/helpers/store-engines.js';
import { type CredentialChange, type Store, type UserRecord } from './store.js';
import { until } from '../../test/helpers/wait.js';
import { NotFoundError, UsernameTakenError } from '../errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const timeouts = { idleMs: 30 * MINUTE, absoluteMs: 8 * HOUR };

for (const engine of storeEngines) {
  describe(`the store on ${engine.name}`, () => {
    /** A fresh database with a store open on it, or `undefined` when the test was skipped. */
    async function fixture(
      t: TestContext,
    ): Promise<{ db: TestDatabase; store: Store } | undefined> {
      const db = await engine.create(t);
      if (db === undefined) return undefined;
      return { db, store: await db.open() };
    }

    /** As {@link fixture}, with a user `alice`. */
    async function withAlice(
      t: TestContext,
    ): Promise<{ db: TestDatabase; store: Store; alice: UserRecord } | undefined> {
      const opened = await fixture(t);
      if (opened === undefined) return undefined;
      return { ...opened, alice: await opened.store.createUser('alice', 'h', 0) };
    }

    const lastSeen = async (db: TestDatabase, digest: string) =>
      (
        await db.sql<{ last_seen_at: number }>(
          'SELECT last_seen_at FROM sessions WHERE digest = $1',
          digest,
        )
      )[0]?.last_seen_at;
    const sessionCount = async (db: TestDatabase) =>
      Number((await db.sql<{ n: number }>('SELECT count(*) AS n FROM sessions'))[0]?.n);

    it('users: created, found with their hash, listed by id with their lock, counted', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      assert.equal(await store.countUsers(), 0);
      const alice = await store.createUser('alice', 'hash-a', 1000);
      assert.deepEqual(alice, { id: alice.id, username: 'alice', createdAt: 1000 });
      const bob = await store.createUser('bob', 'hash-b', 2000);
      assert.deepEqual(await store.findUserCredentials('alice'), {
        ...alice,
        passwordHash: 'hash-a',
        lockedAt: null,
      });
      assert.equal(await store.findUserCredentials('nobody'), undefined);
      assert.deepEqual(await store.listUsers(), [
        { ...alice, lockedAt: null },
        { ...bob, lockedAt: null },
      ]);
      assert.equal(await store.countUsers(), 2);
      await store.lockUser('bob', 3000);
      assert.deepEqual(await store.listUsers(), [
        { ...alice, lockedAt: null },
        { ...bob, lockedAt: 3000 },
      ]);
    });

    it('users: a taken name is UsernameTakenError; names compare case-sensitively', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      await store.createUser('alice', 'h', 1);
      await assert.rejects(store.createUser('alice', 'h2', 2), (error: unknown) => {
        assert.ok(error instanceof UsernameTakenError);
        assert.equal(error.code, 'VOUCH_SERVICE_USERNAME_TAKEN');
        return true;
      });
      await store.createUser('Alice', 'h', 3);
      assert.equal(await store.countUsers(), 2);
    });

    it('users: a password replaced, a user locked and unlocked once, a user removed', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      const bob = await store.createUser('bob', 'hash-b', 0);
      assert.equal(await store.setUserPassword('alice', 'new-hash'), 0, 'no session to end');
      assert.equal((await store.findUserCredentials('alice'))?.passwordHash, 'new-hash');
      assert.equal((await store.findUserCredentials('bob'))?.passwordHash, 'hash-b');

      assert.equal(await store.lockUser('alice', 5), true);
      assert.equal(await store.lockUser('alice', 6), false, 'locked once, when first locked');
      assert.equal((await store.findUserCredentials('alice'))?.lockedAt, 5);
      assert.equal((await store.findUserCredentials('bob'))?.lockedAt, null);
      assert.equal(await store.unlockUser('alice'), true);
      assert.equal(await store.unlockUser('alice'), false);
      assert.equal((await store.findUserCredentials('alice'))?.lockedAt, null);

      await store.removeUser('alice');
      assert.equal(await store.findUserCredentials('alice'), undefined);
      assert.deepEqual(await store.listUsers(), [{ ...bob, lockedAt: null }]);
      for (const change of [
        () => store.setUserPassword('alice', 'h'),
        () => store.removeUser('alice'),
        () => store.lockUser('alice', 7),
        () => store.unlockUser('alice'),
      ]) {
        await assert.rejects(change(), (error: unknown) => {
          assert.ok(error instanceof NotFoundError);
          assert.equal(error.code, 'VOUCH_SERVICE_NOT_FOUND');
          return true;
        });
      }
    });

    it("users: a new password ends the user's sessions, at once, and keeps its tokens", async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      const bob = await store.createUser('bob', 'h', 0);
      await store.createToken('token', alice.id, HOUR, 0);
      for (const digest of ['laptop', 'phone']) {
        assert.equal(await store.createSession(digest, alice.id, 'h', 0), true);
      }
      await store.createSession('bob', bob.id, 'h', 0);
      assert.equal(await store.setUserPassword('alice', 'new-hash'), 2);
      for (const digest of ['laptop', 'phone']) {
        assert.equal(await store.findSession(digest, 1, timeouts), undefined, digest);
      }
      assert.equal(await sessionCount(db), 1, "the rows are gone; bob's is left");
      assert.deepEqual((await store.findSession('bob', 1, timeouts))?.user, bob);
      assert.deepEqual((await store.findToken('token', 1))?.user, alice, 'the token is kept');
      assert.equal(await store.setUserPassword('alice', 'newer-hash'), 0);
    });

    it('users: a session starts only for the password checked, while the user is unlocked', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      // The password was checked against 'h'; a new one is committed before the session starts.
      await store.setUserPassword('alice', 'new-hash');
      assert.equal(await store.createSession('old', alice.id, 'h', 0), false);
      assert.equal(await store.createSession('new', alice.id, 'new-hash', 0), true);
      await store.lockUser('alice', 1);
      assert.equal(await store.createSession('locked', alice.id, 'new-hash', 1), false);
      await store.unlockUser('alice');
      await store.removeUser('alice');
      assert.equal(await store.createSession('removed', alice.id, 'new-hash', 2), false);
      assert.equal(await store.createSession('nobody', 999, 'h', 2), false);
      assert.equal(await sessionCount(db), 0);
    });

    it("users: a locked user's tokens and sessions are refused until unlocked", async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      const bob = await store.createUser('bob', 'h', 0);
      await store.createToken('token', alice.id, HOUR, 0);
      await store.createSession('session', alice.id, 'h', 0);
      await store.createToken('bob', bob.id, HOUR, 0);
      await store.lockUser('alice', 1);
      assert.equal(await store.findToken('token', 2), undefined);
      assert.equal(await store.findSession('session', 2, timeouts), undefined);
      assert.deepEqual((await store.findToken('bob', 2))?.user, bob);
      await store.unlockUser('alice');
      assert.deepEqual((await store.findToken('token', 3))?.user, alice);
      assert.deepEqual((await store.findSession('session', 3, timeouts))?.user, alice);
    });

    it("users: a removed user's tokens, sessions and grants go with it", async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      await store.grantUserScope('alice', 'admin');
      await store.createToken('token', alice.id, HOUR, 0, ['admin']);
      await store.createSession('session', alice.id, 'h', 0);
      await store.removeUser('alice');
      assert.equal(await store.findToken('token', 1), undefined);
      assert.equal(await store.findSession('session', 1, timeouts), undefined);
      assert.equal(await sessionCount(db), 0);
      assert.deepEqual(await db.sql('SELECT * FROM user_scopes'), []);
      // The name is free again, for a new user with nothing of the old one's.
      const again = await store.createUser('alice', 'h', 2);
      assert.deepEqual(await store.userScopes(again.id), []);
    });

    it('logins: an engine remembers none, and only runs the check it is given', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      const login = { user: alice, scopes: [] };
      let checks = 0;
      const verify = () => {
        checks += 1;
        return Promise.resolve(login);
      };
      assert.deepEqual(await store.rememberLogin('digest', verify), login);
      assert.equal(store.recallLogin('digest'), undefined);
      assert.deepEqual(await store.rememberLogin('digest', verify), login);
      assert.equal(checks, 2);
    });

    it('tokens: valid until expiresAt, then gone', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      await store.createToken('digest-1', alice.id, 10 * HOUR, 0);
      assert.deepEqual(await store.findToken('digest-1', 10 * HOUR - 1), {
        user: alice,
        expiresAt: 10 * HOUR,
        scopes: [],
      });
      assert.equal(await store.findToken('digest-1', 10 * HOUR), undefined);
      assert.equal(await store.findToken('unknown', 0), undefined);
    });

    it('tokens: revocation takes effect at once and only once', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      await store.createToken('digest-1', alice.id, HOUR, 0);
      await store.createToken('digest-2', alice.id, HOUR, 0);
      assert.equal(await store.revokeToken('digest-1', 5), true);
      assert.equal(await store.findToken('digest-1', 6), undefined);
      assert.deepEqual((await store.findToken('digest-2', 6))?.user, alice);
      assert.equal(await store.revokeToken('digest-1', 7), false);
      await assert.rejects(store.revokeToken('unknown', 7), (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.equal(error.code, 'VOUCH_SERVICE_NOT_FOUND');
        return true;
      });
    });

    it("tokens: a user's all revoked at once, counting those that still worked; others' kept", async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      const bob = await store.createUser('bob', 'h', 0);
      for (const digest of ['laptop', 'phone', 'script']) {
        await store.createToken(digest, alice.id, HOUR, 0);
      }
      await store.createToken('expired', alice.id, 10, 0);
      await store.createToken('revoked', alice.id, HOUR, 0);
      await store.revokeToken('revoked', 5);
      await store.createToken('bob', bob.id, HOUR, 0);

      assert.equal(await store.revokeUserTokens('alice', 20), 3, 'the three that still worked');
      for (const digest of ['laptop', 'phone', 'script']) {
        assert.equal(await store.findToken(digest, 21), undefined, digest);
      }
      assert.deepEqual((await store.findToken('bob', 21))?.user, bob);
      // The expired one is revoked too: whether it expired is for the instances' clocks to say.
      // The one revoked before keeps its time.
      assert.deepEqual(
        await db.sql(
          'SELECT digest, revoked_at FROM tokens WHERE user_id = $1 ORDER BY digest',
          alice.id,
        ),
        [
          { digest: 'expired', revoked_at: 20 },
          { digest: 'laptop', revoked_at: 20 },
          { digest: 'phone', revoked_at: 20 },
          { digest: 'revoked', revoked_at: 5 },
          { digest: 'script', revoked_at: 20 },
        ],
      );
      assert.equal(await store.revokeUserTokens('alice', 30), 0, 'none left');
      // A token issued afterwards works: this revokes tokens, it locks nobody out.
      await store.createToken('later', alice.id, HOUR, 30);
      assert.deepEqual((await store.findToken('later', 31))?.user, alice);
    });

    it("tokens: a locked user's are revoked for good; an unknown name is NotFoundError", async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      await store.createToken('token', alice.id, HOUR, 0);
      await store.lockUser('alice', 1);
      assert.equal(await store.revokeUserTokens('alice', 2), 1);
      await store.unlockUser('alice');
      assert.equal(await store.findToken('token', 3), undefined, 'still revoked once unlocked');
      await store.createToken('other', alice.id, HOUR, 0);
      // Names compare case-sensitively, as everywhere.
      await assert.rejects(store.revokeUserTokens('Alice', 4), (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.equal(error.code, 'VOUCH_SERVICE_NOT_FOUND');
        return true;
      });
      assert.deepEqual((await store.findToken('other', 5))?.user, alice, 'nothing changed');
      assert.deepEqual(await db.sql('SELECT revoked_at FROM tokens WHERE digest = $1', 'other'), [
        { revoked_at: null },
      ]);
    });

    it('applications: found by key digest until revoked; revocation at once', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      const app = await store.createApplication('billing', 'vk_abcdefgh', 'key-digest', 100);
      assert.deepEqual(app, {
        id: app.id,
        name: 'billing',
        keyPrefix: 'vk_abcdefgh',
        createdAt: 100,
        revokedAt: null,
        scopes: [],
      });
      assert.deepEqual(await store.findApplicationByKey('key-digest'), app);
      assert.equal(await store.findApplicationByKey('other'), undefined);
      assert.equal(await store.revokeApplication(app.id, 200), true);
      assert.equal(await store.findApplicationByKey('key-digest'), undefined);
      assert.deepEqual(await store.listApplications(), [{ ...app, revokedAt: 200 }]);
      assert.equal(await store.revokeApplication(app.id, 300), false);
      assert.deepEqual(await store.listApplications(), [{ ...app, revokedAt: 200 }]);
    });

    it('scopes: granted to a user once, withdrawn once, listed sorted', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      const bob = await store.createUser('bob', 'h', 0);
      assert.deepEqual(await store.userScopes(alice.id), []);
      assert.equal(await store.grantUserScope('alice', 'pets:read'), true);
      assert.equal(await store.grantUserScope('alice', 'admin'), true);
      assert.equal(await store.grantUserScope('alice', 'admin'), false);
      assert.deepEqual(await store.userScopes(alice.id), ['admin', 'pets:read']);
      assert.deepEqual(await store.userScopes(bob.id), []);
      assert.equal(await store.revokeUserScope('alice', 'admin'), true);
      assert.equal(await store.revokeUserScope('alice', 'admin'), false);
      assert.deepEqual(await store.userScopes(alice.id), ['pets:read']);
      for (const change of ['grantUserScope', 'revokeUserScope'] as const) {
        await assert.rejects(store[change]('nobody', 'admin'), (error: unknown) => {
          assert.ok(error instanceof NotFoundError);
          assert.equal(error.code, 'VOUCH_SERVICE_NOT_FOUND');
          return true;
        });
      }
    });

    it('tokens: carry the scopes issued with, as long as their user holds them', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      await store.grantUserScope('alice', 'admin');
      await store.grantUserScope('alice', 'pets:read');
      await store.createToken('scoped', alice.id, HOUR, 0, ['admin', 'pets:read']);
      await store.createToken('narrow', alice.id, HOUR, 0, ['pets:read']);
      await store.createToken('plain', alice.id, HOUR, 0);
      const scopesOf = async (digest: string) => (await store.findToken(digest, 1))?.scopes;
      assert.deepEqual(await scopesOf('scoped'), ['admin', 'pets:read']);
      assert.deepEqual(await scopesOf('narrow'), ['pets:read']);
      assert.deepEqual(await scopesOf('plain'), []);
      // Withdrawn from the user, a scope is gone from her tokens at once; never added by a grant.
      await store.revokeUserScope('alice', 'admin');
      assert.deepEqual(await scopesOf('scoped'), ['pets:read']);
      await store.grantUserScope('alice', 'pets:write');
      assert.deepEqual(await scopesOf('scoped'), ['pets:read']);
      assert.deepEqual(await scopesOf('narrow'), ['pets:read']);
    });

    it('tokens: a scope withdrawn stays withdrawn from the tokens issued before it', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      const scopesOf = async (digest: string) => (await store.findToken(digest, 1))?.scopes;
      // Everything in the same millisecond: the rule cannot lean on the clock.
      await store.grantUserScope('alice', 'admin');
      await store.grantUserScope('alice', 'pets:read');
      await store.createToken('before', alice.id, HOUR, 0, ['admin', 'pets:read']);
      assert.equal(await store.revokeUserScope('alice', 'admin'), true);
      assert.equal(await store.grantUserScope('alice', 'admin'), true);
      assert.deepEqual(await scopesOf('before'), ['pets:read'], 'granted again, not for it');
      // A token issued after the new grant, in that same millisecond, carries it.
      await store.createToken('after', alice.id, HOUR, 0, ['admin', 'pets:read']);
      assert.deepEqual(await scopesOf('after'), ['admin', 'pets:read']);
      assert.deepEqual(await scopesOf('before'), ['pets:read']);
      // A second withdrawal is as final for it, and the grant held throughout still counts.
      await store.revokeUserScope('alice', 'admin');
      await store.grantUserScope('alice', 'admin');
      assert.deepEqual(await scopesOf('after'), ['pets:read']);
      // A token issued asking for a scope its user lacked gains nothing from a later grant.
      await store.createToken('early', alice.id, HOUR, 0, ['pets:write']);
      await store.grantUserScope('alice', 'pets:write');
      assert.deepEqual(await scopesOf('early'), []);
      // Another user's grants, before or after, change nothing for alice's tokens.
      const bob = await store.createUser('bob', 'h', 0);
      await store.grantUserScope('bob', 'admin');
      await store.createToken('bob', bob.id, HOUR, 0, ['admin']);
      assert.deepEqual(await scopesOf('bob'), ['admin']);
      assert.deepEqual(await scopesOf('before'), ['pets:read']);
    });

    it('applications: scopes granted to a key once, withdrawn once, carried when found', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      const app = await store.createApplication('billing', 'vk_1', 'key', 0);
      assert.equal(await store.grantApplicationScope(app.id, 'invoices:write'), true);
      assert.equal(await store.grantApplicationScope(app.id, 'admin'), true);
      assert.equal(await store.grantApplicationScope(app.id, 'admin'), false);
      assert.deepEqual((await store.findApplicationByKey('key'))?.scopes, [
        'admin',
        'invoices:write',
      ]);
      assert.deepEqual(await store.listApplications(), [
        { ...app, scopes: ['admin', 'invoices:write'] },
      ]);
      assert.equal(await store.revokeApplicationScope(app.id, 'admin'), true);
      assert.equal(await store.revokeApplicationScope(app.id, 'admin'), false);
      assert.deepEqual((await store.findApplicationByKey('key'))?.scopes, ['invoices:write']);
      for (const change of ['grantApplicationScope', 'revokeApplicationScope'] as const) {
        await assert.rejects(store[change](app.id + 1, 'admin'), (error: unknown) => {
          assert.ok(error instanceof NotFoundError);
          return true;
        });
      }
    });

    it('applications: revoking an unknown id is NotFoundError', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      await assert.rejects(store.revokeApplication(42, 1), (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.equal(error.code, 'VOUCH_SERVICE_NOT_FOUND');
        return true;
      });
    });

    it('applications: a key digest is unique (a bug, not an outage)', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      await store.createApplication('a', 'vk_1', 'same', 1);
      await assert.rejects(store.createApplication('b', 'vk_2', 'same', 2), (error: unknown) => {
        assert.ok(!(error instanceof StoreUnavailableError));
        return true;
      });
      assert.equal((await store.listApplications()).length, 1);
    });

    it('foreign keys are enforced: no token for an unknown user', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      await assert.rejects(store.createToken('d', 999, 10, 0), (error: unknown) => {
        assert.ok(!(error instanceof StoreUnavailableError));
        assert.match((error as Error).message, /foreign key/i);
        return true;
      });
    });

    it('settings: absent, then the first writer wins, across connections', async (t) => {
      const { db, store: one } = (await fixture(t)) ?? {};
      if (db === undefined || one === undefined) return;
      const two = await db.open();
      assert.equal(await one.getSetting('secret'), undefined);
      assert.equal(await one.setSettingIfAbsent('secret', 'first'), 'first');
      assert.equal(await two.setSettingIfAbsent('secret', 'second'), 'first');
      assert.equal(await two.getSetting('secret'), 'first');
      const racing = await Promise.all(
        ['a', 'b', 'c', 'd'].map((value, i) =>
          (i % 2 === 0 ? one : two).setSettingIfAbsent('raced', value),
        ),
      );
      assert.equal(new Set(racing).size, 1, `one value in force: ${racing.join(', ')}`);
    });

    it('reopening keeps users, tokens, keys, revocations, sessions and settings', async (t) => {
      const { db, store: before } = (await fixture(t)) ?? {};
      if (db === undefined || before === undefined) return;
      const alice = await before.createUser('alice', 'h', 1);
      await before.createToken('live', alice.id, HOUR, 0);
      await before.createToken('revoked', alice.id, HOUR, 0);
      await before.revokeToken('revoked', 1);
      const kept = await before.createApplication('kept', 'vk_1', 'kept-digest', 1);
      const gone = await before.createApplication('gone', 'vk_2', 'gone-digest', 1);
      await before.revokeApplication(gone.id, 2);
      await before.createSession('session', alice.id, 'h', 0);
      await before.setSettingIfAbsent('secret', 's');
      await before.close();

      const after = await db.open();
      assert.deepEqual(await after.listUsers(), [{ ...alice, lockedAt: null }]);
      assert.deepEqual((await after.findToken('live', 2))?.user, alice);
      assert.equal(await after.findToken('revoked', 2), undefined);
      assert.deepEqual(await after.findApplicationByKey('kept-digest'), kept);
      assert.equal(await after.findApplicationByKey('gone-digest'), undefined);
      assert.deepEqual((await after.findSession('session', 1, timeouts))?.user, alice);
      assert.equal(await after.getSetting('secret'), 's');
    });

    it('after close, every call is StoreUnavailableError; closing twice is harmless', async (t) => {
      const { store } = (await fixture(t)) ?? {};
      if (store === undefined) return;
      await store.ping();
      await store.close();
      await store.close();
      await assert.rejects(store.ping(), StoreUnavailableError);
      await assert.rejects(async () => store.findToken('x', 0), StoreUnavailableError);
      await assert.rejects(
        async () => store.findSession('x', 0, { idleMs: 1, absoluteMs: 1 }),
        StoreUnavailableError,
      );
    });

    it('sessions: a live session answers its user; unknown digests answer nothing', async (t) => {
      const { store, alice } = (await withAlice(t)) ?? {};
      if (store === undefined || alice === undefined) return;
      await store.createSession('s', alice.id, 'h', 0);
      assert.deepEqual(await store.findSession('s', 1, timeouts), {
        user: alice,
        createdAt: 0,
        lastSeenAt: 0,
      });
      assert.equal(await store.findSession('unknown', 1, timeouts), undefined);
      await store.deleteSession('never-existed');
    });

    it('sessions: unused for idleMs, a session dies and its row is deleted', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      await store.createSession('s', alice.id, 'h', 0);
      assert.deepEqual((await store.findSession('s', timeouts.idleMs - 1, timeouts))?.user, alice);
      // That use refreshed the idle clock, so the session lives on past the first deadline…
      assert.deepEqual(
        (await store.findSession('s', 2 * timeouts.idleMs - 2, timeouts))?.user,
        alice,
      );
      // …until it is left alone for idleMs.
      assert.equal(await store.findSession('s', 3 * timeouts.idleMs - 2, timeouts), undefined);
      assert.equal(await sessionCount(db), 0);
    });

    it('sessions: however busy, a session dies absoluteMs after login', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      await store.createSession('s', alice.id, 'h', 0);
      for (let now = 10 * MINUTE; now < timeouts.absoluteMs; now += 10 * MINUTE) {
        assert.deepEqual((await store.findSession('s', now, timeouts))?.user, alice);
      }
      assert.equal(await store.findSession('s', timeouts.absoluteMs, timeouts), undefined);
      assert.equal(await sessionCount(db), 0);
    });

    it('purge: tokens expired and sessions dead by then go; whatever could still work stays', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      const before = 100 * HOUR;
      await store.createToken('expired', alice.id, before - 1, 0);
      await store.createToken('expired-just-then', alice.id, before, 0);
      await store.createToken('expired-revoked', alice.id, before - 1, 0);
      await store.revokeToken('expired-revoked', 1);
      await store.createToken('live', alice.id, before + 1, 0);
      await store.createToken('live-revoked', alice.id, before + HOUR, 0);
      await store.revokeToken('live-revoked', 1);
      // Idle: last seen at creation. Busy: seen just now, but begun absoluteMs ago.
      await store.createSession('idle', alice.id, 'h', before - timeouts.idleMs);
      await store.createSession('busy', alice.id, 'h', before - timeouts.absoluteMs);
      await db.sql('UPDATE sessions SET last_seen_at = $1 WHERE digest = $2', before, 'busy');
      await store.createSession('live', alice.id, 'h', before - timeouts.idleMs + 1);
      assert.deepEqual(await store.purgeExpired(before, timeouts), { tokens: 3, sessions: 2 });
      const tokens = await db.sql<{ digest: string }>('SELECT digest FROM tokens ORDER BY digest');
      assert.deepEqual(
        tokens.map((row) => row.digest),
        ['live', 'live-revoked'],
      );
      const sessions = await db.sql<{ digest: string }>('SELECT digest FROM sessions');
      assert.deepEqual(
        sessions.map((row) => row.digest),
        ['live'],
      );
      assert.deepEqual((await store.findToken('live', before))?.user, alice);
      assert.deepEqual((await store.findSession('live', before, timeouts))?.user, alice);
      assert.deepEqual(await store.purgeExpired(before, timeouts), { tokens: 0, sessions: 0 });
    });

    it('sessions: reads within the refresh interval write nothing; a stale clock is written', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      await store.createSession('s', alice.id, 'h', 1000);
      for (let now = 1000; now < 1000 + MINUTE; now += 5000) {
        assert.equal((await store.findSession('s', now, timeouts))?.lastSeenAt, 1000);
      }
      // Any write would have moved the clock to the reading's time.
      assert.equal(await lastSeen(db, 's'), 1000);
      assert.equal(
        (await store.findSession('s', 1000 + MINUTE, timeouts))?.lastSeenAt,
        1000 + MINUTE,
      );
      assert.equal(await lastSeen(db, 's'), 1000 + MINUTE);
    });

    it('sessions: an older clock never moves the idle clock backwards', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      await store.createSession('s', alice.id, 'h', 0);
      // Both read the stale clock and both write it, the older last as often as not.
      await Promise.all([
        store.findSession('s', 10 * MINUTE, timeouts),
        store.findSession('s', 9 * MINUTE, timeouts),
      ]);
      assert.equal(await lastSeen(db, 's'), 10 * MINUTE);
    });

    it('sessions: a request racing a logout never resurrects the session', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      for (let round = 0; round < 30; round++) {
        const digest = `s${round}`;
        await store.createSession(digest, alice.id, 'h', 0);
        // The read needs a refresh (stale by 10 minutes), so both operations write.
        const racers: Promise<unknown>[] = [
          Promise.resolve(store.findSession(digest, 10 * MINUTE, timeouts)),
          store.deleteSession(digest),
          Promise.resolve(store.findSession(digest, 10 * MINUTE + 1, timeouts)),
        ];
        if (round % 2 === 1) racers.reverse();
        await Promise.all(racers);
        assert.equal(await store.findSession(digest, 10 * MINUTE + 2, timeouts), undefined);
      }
      assert.equal(await sessionCount(db), 0);
    });

    it('sessions: a logout by another connection is seen by the next request', async (t) => {
      const { db, store, alice } = (await withAlice(t)) ?? {};
      if (db === undefined || store === undefined || alice === undefined) return;
      const other = await db.open();
      await store.createSession('s', alice.id, 'h', 0);
      assert.deepEqual((await store.findSession('s', 1, timeouts))?.user, alice);
      await other.deleteSession('s');
      assert.equal(await store.findSession('s', 2, timeouts), undefined);
      assert.equal(await store.findSession('s', 10 * MINUTE, timeouts), undefined);
    });

    describe('watchChanges', () => {
      /** A watcher that records what it is told. */
      function recorder() {
        const seen = { ready: 0, changes: [] as CredentialChange[], lost: [] as Error[] };
        return {
          seen,
          watcher: {
            ready: () => void (seen.ready += 1),
            changed: (change: CredentialChange) => void seen.changes.push(change),
            pending: () => void seen.lost.push(new Error('pending')),
            lost: (error: Error) => void seen.lost.push(error),
          },
        };
      }

      /** Whether a reported change covers a credential of this kind and digest. */
      const covers = (change: CredentialChange, kind: string, digest?: string) =>
        change.kind === 'all' ||
        (change.kind === kind && (!('digest' in change) || change.digest === digest));

      it('another connection taking a credential away is reported, once visible', async (t) => {
        const { db, store, alice } = (await withAlice(t)) ?? {};
        if (db === undefined || store === undefined || alice === undefined) return;
        const other = await db.open();
        await store.createToken('token', alice.id, HOUR, 0);
        await store.createSession('session', alice.id, 'h', 0);
        const app = await store.createApplication('billing', 'vk_1', 'key', 0);
        const { seen, watcher } = recorder();
        const stop = store.watchChanges(watcher);
        t.after(stop);
        await until(() => seen.ready === 1, 'the watch is ready');

        const cases: [
          string,
          string | undefined,
          () => Promise<unknown>,
          () => Promise<unknown>,
        ][] = [
          [
            'token',
            'token',
            () => other.revokeToken('token', 1),
            () => Promise.resolve(store.findToken('token', 2)),
          ],
          [
            'session',
            'session',
            () => other.deleteSession('session'),
            () => Promise.resolve(store.findSession('session', 2, timeouts)),
          ],
          [
            'applications',
            undefined,
            () => other.revokeApplication(app.id, 1),
            () => Promise.resolve(store.findApplicationByKey('key')),
          ],
        ];
        for (const [kind, digest, takeAway, lookUp] of cases) {
          const before = seen.changes.length;
          await takeAway();
          await until(
            () => seen.changes.slice(before).some((change) => covers(change, kind, digest)),
            `the ${kind} change is reported`,
          );
          assert.equal(await lookUp(), undefined, `the ${kind} is gone for this store's reads`);
        }
        assert.deepEqual(seen.lost, []);
      });

      it("another connection revoking a user's tokens is reported for each, once visible", async (t) => {
        const { db, store, alice } = (await withAlice(t)) ?? {};
        if (db === undefined || store === undefined || alice === undefined) return;
        const other = await db.open();
        const digests = ['laptop', 'phone', 'script'];
        for (const digest of digests) await store.createToken(digest, alice.id, HOUR, 0);
        const { seen, watcher } = recorder();
        const stop = store.watchChanges(watcher);
        t.after(stop);
        await until(() => seen.ready === 1, 'the watch is ready');

        assert.equal(await other.revokeUserTokens('alice', 1), 3);
        for (const digest of digests) {
          await until(
            () => seen.changes.some((change) => covers(change, 'token', digest)),
            `${digest} is reported`,
          );
          assert.equal(await store.findToken(digest, 2), undefined, `${digest} is gone`);
        }
        assert.deepEqual(seen.lost, []);
      });

      it('another connection withdrawing a grant is reported, once visible', async (t) => {
        const { db, store, alice } = (await withAlice(t)) ?? {};
        if (db === undefined || store === undefined || alice === undefined) return;
        const other = await db.open();
        await store.grantUserScope('alice', 'admin');
        await store.createToken('token', alice.id, HOUR, 0, ['admin']);
        const app = await store.createApplication('billing', 'vk_1', 'key', 0);
        await store.grantApplicationScope(app.id, 'admin');
        const { seen, watcher } = recorder();
        const stop = store.watchChanges(watcher);
        t.after(stop);
        await until(() => seen.ready === 1, 'the watch is ready');

        let before = seen.changes.length;
        await other.revokeUserScope('alice', 'admin');
        await until(
          () => seen.changes.slice(before).some((change) => covers(change, 'token', 'token')),
          "the user's grant change is reported",
        );
        assert.deepEqual((await store.findToken('token', 1))?.scopes, []);
        before = seen.changes.length;
        await other.revokeApplicationScope(app.id, 'admin');
        await until(
          () => seen.changes.slice(before).some((change) => covers(change, 'applications')),
          "the key's grant change is reported",
        );
        assert.deepEqual((await store.findApplicationByKey('key'))?.scopes, []);
      });

      it("another connection changing a user's password, lock or existence is reported", async (t) => {
        const { db, store, alice } = (await withAlice(t)) ?? {};
        if (db === undefined || store === undefined || alice === undefined) return;
        const other = await db.open();
        await store.createToken('token', alice.id, HOUR, 0);
        const { seen, watcher } = recorder();
        const stop = store.watchChanges(watcher);
        t.after(stop);
        await until(() => seen.ready === 1, 'the watch is ready');
        for (const [what, change] of [
          ['a new password', () => other.setUserPassword('alice', 'new-hash')],
          ['a lock', () => other.lockUser('alice', 1)],
          ['an unlock', () => other.unlockUser('alice')],
          ['a removal', () => other.removeUser('alice')],
        ] as const) {
          const before = seen.changes.length;
          await change();
          await until(
            () => seen.changes.slice(before).some((reported) => reported.kind === 'all'),
            `${what} is reported as a change to anything`,
          );
        }
        assert.deepEqual(seen.lost, []);
      });

      it('nothing is reported once stopped', async (t) => {
        const { db, store, alice } = (await withAlice(t)) ?? {};
        if (db === undefined || store === undefined || alice === undefined) return;
        const other = await db.open();
        await store.createToken('token', alice.id, HOUR, 0);
        const { seen, watcher } = recorder();
        const stop = store.watchChanges(watcher);
        await until(() => seen.ready === 1, 'the watch is ready');
        stop();
        await other.revokeToken('token', 1);
        await sleep(200);
        assert.deepEqual(seen.changes, []);
      });
    });
  });
}
