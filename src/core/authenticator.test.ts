import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Authenticator, quote } from './authenticator.js';
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
