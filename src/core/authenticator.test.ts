import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyCookie } from '../api-key/api-key-cookie.js';
import { APIKeyHeader } from '../api-key/api-key-header.js';
import { APIKeyQuery } from '../api-key/api-key-query.js';
import { HttpBasic } from '../http/http-basic.js';
import { HttpBearer } from '../http/http-bearer.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { SessionAuth } from '../session/session-auth.js';
import { Authenticator, quote } from './authenticator.js';
import { authFunction } from './function-authenticator.js';
import { REJECTED, type Outcome } from './outcome.js';
import type { SecurityScheme } from './security-scheme.js';

class Minimal extends Authenticator {
  override get securityScheme(): SecurityScheme | undefined {
    return undefined;
  }
  override verify(): Promise<Outcome<unknown>> {
    return Promise.resolve(REJECTED);
  }
}

describe('Authenticator', () => {
  it('takes the default scheme name unless one is given', () => {
    assert.equal(new Minimal('minimal').schemeName, 'minimal');
    assert.equal(new Minimal('minimal', {}).schemeName, 'minimal');
    assert.equal(new Minimal('minimal', { name: 'mine' }).schemeName, 'mine');
  });

  it('has no realm of its own unless one is given', () => {
    assert.equal(new Minimal('m').realm, undefined);
    assert.equal(new Minimal('m', { realm: 'r' }).realm, 'r');
  });

  it('refuses a realm that could not stand in a header (control characters, CR/LF, non-ASCII)', () => {
    for (const realm of ['a\r\nSet-Cookie: x=1', 'tab\there', 'caf\u00e9']) {
      assert.throws(() => new Minimal('m', { realm }), { code: 'VOUCH_ERR_CONFIGURATION' });
    }
  });

  it('is not cookie-based and sends no challenge by default', () => {
    const auth = new Minimal('m');
    assert.equal(auth.cookieBased, false);
    assert.equal(auth.challenge('api', false), undefined);
    assert.equal(auth.challenge('api', true), undefined);
  });

  it('says what the adapter and the description need to know about its credential', () => {
    class CookieOwn extends Minimal {
      override get cookieBased(): boolean {
        return true;
      }
    }
    const hook = (): string => 'x';
    // [authenticator, cookieBased, privateResponses, readsCredential]
    const rows: readonly [Authenticator, boolean, boolean, boolean][] = [
      [new Minimal('m'), false, false, false],
      [new CookieOwn('c'), true, true, false],
      // A function may read anything but Authorization: its answers are the caller's own.
      [authFunction(hook), false, true, false],
      [new HttpBearer({ authenticate: hook }), false, false, true],
      [new HttpBasic({ authenticate: hook }), false, false, true],
      [new APIKeyQuery({ authenticate: hook }), false, true, true],
      [new APIKeyHeader({ authenticate: hook }), false, true, true],
      [new APIKeyCookie({ authenticate: hook }), true, true, true],
      [new SessionAuth({ store: new MemorySessionStore() }), true, true, true],
    ];
    for (const [auth, cookieBased, privateResponses, readsCredential] of rows) {
      assert.deepEqual(
        [auth.cookieBased, auth.privateResponses, auth.readsCredential],
        [cookieBased, privateResponses, readsCredential],
        auth.schemeName,
      );
    }
  });
  it('consults no store unless told so; a session does unless told otherwise', () => {
    const hook = (): string => 'x';
    const sessions = new MemorySessionStore();
    // [authenticator, consultsStore]
    const rows: readonly [Authenticator, boolean][] = [
      [new Minimal('m'), false],
      [new Minimal('m', { consultsStore: true }), true],
      [authFunction(hook, { consultsStore: true }), true],
      [new HttpBearer({ authenticate: hook }), false],
      [new HttpBearer({ authenticate: hook, consultsStore: true }), true],
      [new HttpBasic({ authenticate: hook, consultsStore: true }), true],
      [new APIKeyHeader({ authenticate: hook, consultsStore: true }), true],
      [new SessionAuth({ store: sessions }), true],
      [new SessionAuth({ store: sessions, consultsStore: false }), false],
    ];
    for (const [auth, consultsStore] of rows) {
      assert.equal(auth.consultsStore, consultsStore, auth.schemeName);
    }
  });
});

describe('quote', () => {
  const cases: readonly [string, string][] = [
    ['api', '"api"'],
    ['', '""'],
    ['a b', '"a b"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['\\"', '"\\\\\\""'],
    ["it's, fine=ok", '"it\'s, fine=ok"'],
  ];
  for (const [value, quoted] of cases) {
    it(`${JSON.stringify(value)} → ${quoted}`, () => {
      assert.equal(quote(value), quoted);
    });
  }
});
