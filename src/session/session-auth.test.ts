import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import { MemorySessionStore } from './memory-session-store.js';
import { SessionAuth } from './session-auth.js';
import type { SessionStore } from './session-store.js';

const request = (cookie?: string): RequestView => ({
  method: 'GET',
  url: '/x',
  headers: cookie === undefined ? {} : { cookie },
});

/** A store that records every lookup and knows one session. */
function recordingStore(): SessionStore<string> & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    create: () => Promise.resolve('s1'),
    get: (id) => {
      lookups.push(id);
      return Promise.resolve(id === 's1' ? 'ann' : undefined);
    },
    destroy: () => Promise.resolve(),
  };
}

describe('SessionAuth', () => {
  describe('credential state → outcome', () => {
    const rows: readonly { state: string; cookie?: string; outcome: string; lookups: number }[] = [
      { state: 'no cookie header', outcome: 'absent', lookups: 0 },
      { state: 'other cookie', cookie: 'csrftoken=x', outcome: 'absent', lookups: 0 },
      { state: 'empty session cookie', cookie: 'sessionid=', outcome: 'absent', lookups: 0 },
      {
        state: 'too long',
        cookie: `sessionid=${'s'.repeat(4097)}`,
        outcome: 'rejected',
        lookups: 0,
      },
      { state: 'unknown session', cookie: 'sessionid=s2', outcome: 'rejected', lookups: 1 },
      { state: 'live session', cookie: 'sessionid=s1', outcome: 'accepted', lookups: 1 },
      {
        state: 'ambiguous',
        cookie: 'sessionid=s1; sessionid=s2',
        outcome: 'ambiguous',
        lookups: 0,
      },
    ];
    for (const row of rows) {
      it(`${row.state} → ${row.outcome}, store asked ${row.lookups}×`, async () => {
        const store = recordingStore();
        const session = new SessionAuth({ store });
        assert.equal((await session.verify(request(row.cookie))).state, row.outcome);
        assert.equal(store.lookups.length, row.lookups);
      });
    }
  });

  it('decides without a promise when the store answers synchronously (from a cache, say)', () => {
    const users = new Map([['s1', 'ann']]);
    const session = new SessionAuth<string>({
      store: {
        create: () => Promise.resolve('s1'),
        get: (id) => users.get(id),
        destroy: () => Promise.resolve(),
      },
    });
    const accepted = session.verify(request('sessionid=s1'));
    assert.ok(!(accepted instanceof Promise));
    assert.deepEqual(accepted, { state: 'accepted', value: 'ann', csrfBinding: 's1' });
    const rejected = session.verify(request('sessionid=s2'));
    assert.ok(!(rejected instanceof Promise));
    assert.equal(rejected.state, 'rejected');
  });

  it('resolves a real session and binds CSRF tokens to the session id', async () => {
    const store = new MemorySessionStore<{ name: string }>();
    const id = await store.create({ name: 'ann' });
    const session = new SessionAuth({ store });
    assert.deepEqual(await session.verify(request(`sessionid=${id}`)), {
      state: 'accepted',
      value: { name: 'ann' },
      csrfBinding: id,
    });
    await store.destroy(id);
    assert.deepEqual(await session.verify(request(`sessionid=${id}`)), { state: 'rejected' });
  });

  it('tells the session id a request carries, as it reads it', () => {
    const session = new SessionAuth({ store: recordingStore() });
    assert.equal(session.sessionIdOf(request('a=1; sessionid=s1')), 's1');
    assert.equal(session.sessionIdOf(request('sessionid="s1"')), '"s1"');
    for (const cookie of [undefined, 'a=1', 'sessionid=', 'sessionid=s1; sessionid=s2']) {
      assert.equal(session.sessionIdOf(request(cookie)), undefined, String(cookie));
    }
    assert.equal(session.sessionIdOf(request(`sessionid=${'x'.repeat(5000)}`)), undefined);
  });

  it('reads a configured cookie name', async () => {
    const store = recordingStore();
    const session = new SessionAuth({ store, cookieName: 'sid' });
    assert.equal(session.cookieName, 'sid');
    assert.equal(session.store, store);
    assert.equal((await session.verify(request('sessionid=s1'))).state, 'absent');
    assert.equal((await session.verify(request('sid=s1'))).state, 'accepted');
  });

  it('lets a store failure propagate (it is not "not authenticated")', async () => {
    const down = new Error('store down');
    const session = new SessionAuth<string>({
      store: {
        create: () => Promise.reject(down),
        get: () => Promise.reject(down),
        destroy: () => Promise.reject(down),
      },
    });
    await assert.rejects(async () => session.verify(request('sessionid=s1')), down);
  });

  it('can be subclassed to add checks', async () => {
    class ActiveOnly extends SessionAuth<string> {
      override async authenticate(req: AuthRequest, sessionId: string): Promise<string | Nothing> {
        const user = await super.authenticate(req, sessionId);
        return user === 'ann' ? false : user;
      }
    }
    const session = new ActiveOnly({ store: recordingStore() });
    assert.equal((await session.verify(request('sessionid=s1'))).state, 'rejected');
  });

  it('is cookie-based, sends no challenge and documents its cookie', () => {
    const session = new SessionAuth({ store: recordingStore() });
    assert.equal(session.cookieBased, true);
    assert.equal(session.challenge(), undefined);
    const configured = new SessionAuth({
      store: recordingStore(),
      challenge: 'Cookie realm="api"',
    });
    assert.equal(configured.challenge(), 'Cookie realm="api"');
    assert.throws(() => new SessionAuth({ store: recordingStore(), challenge: 'a\r\nb' }), {
      code: 'VOUCH_ERR_CONFIGURATION',
    });
    assert.throws(() => new SessionAuth({ store: recordingStore(), cookieName: 'a b' }), {
      code: 'VOUCH_ERR_CONFIGURATION',
    });
    assert.equal(session.schemeName, 'sessionAuth');
    assert.deepEqual(session.securityScheme, { type: 'apiKey', in: 'cookie', name: 'sessionid' });
  });

  it('derives a distinct scheme name for another cookie, and documents a description', () => {
    const session = new SessionAuth({
      store: recordingStore(),
      cookieName: '__Host-sid',
      description: 'Browser session',
    });
    assert.equal(session.schemeName, 'sessionAuth___Host-sid');
    assert.deepEqual(session.securityScheme, {
      type: 'apiKey',
      in: 'cookie',
      name: '__Host-sid',
      description: 'Browser session',
    });
    assert.equal(new SessionAuth({ store: recordingStore(), name: 'web' }).schemeName, 'web');
  });
});
