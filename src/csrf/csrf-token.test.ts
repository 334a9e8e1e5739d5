import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { errorCodes } from '../core/errors.js';
import {
  csrfKeys,
  issueCsrfToken,
  issueWithKeys,
  verifyCsrfToken,
  type CsrfSecret,
} from './csrf-token.js';

const SECRET = 'a server secret that is long enough';
const SESSION = 'session-id-1';

describe('issueCsrfToken', () => {
  it('issues a base64url nonce and a base64url HMAC-SHA256, dot-separated', () => {
    const token = issueCsrfToken(SECRET, SESSION);
    assert.match(token, /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const [nonce, mac] = token.split('.');
    const expected = createHmac('sha256', SECRET)
      .update(`vouch-csrf.${nonce!}.${SESSION}`)
      .digest('base64url');
    assert.equal(mac, expected);
    assert.equal(Buffer.from(nonce!, 'base64url').length, 16);
  });

  it('draws a fresh nonce every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => issueCsrfToken(SECRET, SESSION)));
    assert.equal(tokens.size, 50);
  });

  it('signs with the first secret of a list', () => {
    const token = issueCsrfToken(['new secret', 'old secret'], SESSION);
    assert.equal(verifyCsrfToken('new secret', token, SESSION), true);
    assert.equal(verifyCsrfToken('old secret', token, SESSION), false);
  });

  it('treats a string and a Uint8Array of the same bytes as the same key', () => {
    const token = issueCsrfToken(new TextEncoder().encode(SECRET), SESSION);
    assert.equal(verifyCsrfToken(SECRET, token, SESSION), true);
  });

  it('copies a Uint8Array secret, so later changes to it do not change the key', () => {
    const bytes = new TextEncoder().encode(SECRET);
    const keys = csrfKeys(bytes);
    bytes.fill(0);
    assert.equal(verifyCsrfToken(SECRET, issueWithKeys(keys, SESSION), SESSION), true);
  });

  const emptySecrets: [string, CsrfSecret][] = [
    ['empty string', ''],
    ['empty Uint8Array', new Uint8Array()],
    ['empty list', []],
    ['list with an empty entry', ['fine', '']],
    ['list with an empty Uint8Array', [new Uint8Array()]],
    ['something that is no secret', 42 as unknown as CsrfSecret],
  ];
  for (const [name, secret] of emptySecrets) {
    it(`throws a configuration error for ${name}`, () => {
      assert.throws(() => issueCsrfToken(secret, SESSION), { code: errorCodes.configuration });
    });
  }

  it('names the entry of a list that is empty', () => {
    assert.throws(() => csrfKeys(['fine', '']), /CSRF secret #1/);
    assert.throws(() => csrfKeys(''), /the CSRF secret must be/);
    assert.throws(() => csrfKeys([]), /list is empty/);
  });

  it('refuses a binding with a lone surrogate, which UTF-8 could not keep apart', () => {
    assert.throws(() => issueCsrfToken(SECRET, 'a\uD800'), TypeError);
    assert.throws(() => issueCsrfToken(SECRET, 5 as unknown as string), TypeError);
  });
});

describe('the wire format', () => {
  it('verifies a token computed by node:crypto before the portable HMAC replaced it', () => {
    // Nonce: the bytes 00..0f. MAC: node:crypto's createHmac('sha256', SECRET), as vouch signed.
    const token = 'AAECAwQFBgcICQoLDA0ODw.W-aTJFt96Jl2NdVOAcxx44eFAPZBUwnUF1R-T0Ndakg';
    assert.equal(verifyCsrfToken(SECRET, token, SESSION), true);
    assert.equal(verifyCsrfToken(SECRET, token, 'session-id-2'), false);
  });

  it('signs as node:crypto does, for any secret (longer than a block too) and binding', () => {
    const secret = fc.oneof(
      fc.string({ minLength: 1, maxLength: 100 }),
      fc.uint8Array({ minLength: 1, maxLength: 100 }),
    );
    fc.assert(
      fc.property(secret, fc.string({ maxLength: 64 }), (key, binding) => {
        const [nonce = '', mac = ''] = issueCsrfToken(key, binding).split('.');
        const expected = createHmac('sha256', key)
          .update(`vouch-csrf.${nonce}.${binding}`)
          .digest('base64url');
        assert.equal(mac, expected);
      }),
    );
  });
});

describe('verifyCsrfToken', () => {
  const token = issueCsrfToken(SECRET, SESSION);

  it('accepts a token for its own binding', () => {
    assert.equal(verifyCsrfToken(SECRET, token, SESSION), true);
  });

  it('refuses a token for another binding or under another secret', () => {
    assert.equal(verifyCsrfToken(SECRET, token, 'session-id-2'), false);
    assert.equal(verifyCsrfToken(SECRET, token, ''), false);
    assert.equal(verifyCsrfToken('another secret', token, SESSION), false);
  });

  it('verifies under every secret of a list (rotation)', () => {
    const old = issueCsrfToken('old secret', SESSION);
    assert.equal(verifyCsrfToken(['new secret', 'old secret'], old, SESSION), true);
    assert.equal(verifyCsrfToken(['new secret', 'other'], old, SESSION), false);
  });

  it('returns false rather than throwing for an unusable secret', () => {
    assert.equal(verifyCsrfToken('', token, SESSION), false);
    assert.equal(verifyCsrfToken([], token, SESSION), false);
  });

  const [nonce = '', mac = ''] = token.split('.');
  const flip = (s: string, i: number): string =>
    s.slice(0, i) + (s[i] === 'B' ? 'C' : 'B') + s.slice(i + 1);
  const malformed: [string, unknown][] = [
    ['empty', ''],
    ['no dot', nonce + mac],
    ['nonce only', `${nonce}.`],
    ['mac only', `.${mac}`],
    ['two dots', `${nonce}.${mac}.`],
    ['padding', `${nonce}==.${mac}=`],
    ['standard base64 alphabet', `${nonce.slice(0, -2)}+/.${mac}`],
    ['short nonce', `${nonce.slice(1)}.${mac}`],
    ['long mac', `${nonce}.${mac}A`],
    ['space', ` ${token}`],
    ['newline', `${token}\n`],
    ['tampered nonce', `${flip(nonce, 0)}.${mac}`],
    ['tampered mac', `${nonce}.${flip(mac, 0)}`],
    ['swapped halves', `${mac}.${nonce}`],
    ['not a string', 42],
    ['undefined', undefined],
    ['an array', [token]],
  ];
  for (const [name, value] of malformed) {
    it(`refuses a malformed token: ${name}`, () => {
      assert.equal(verifyCsrfToken(SECRET, value as string, SESSION), false);
    });
  }

  it('refuses a non-canonical spelling of a valid token (non-zero padding bits)', () => {
    // The last character of the nonce holds 2 data bits and 4 padding bits; B sets one of those.
    const last = nonce.at(-1)!;
    const sibling = String.fromCharCode(last.charCodeAt(0) + 1);
    const other = `${nonce.slice(0, -1)}${sibling}`;
    assert.deepEqual(Buffer.from(other, 'base64url'), Buffer.from(nonce, 'base64url'));
    const lastMac = mac.at(-1)!;
    const otherMac = `${mac.slice(0, -1)}${String.fromCharCode(lastMac.charCodeAt(0) + 1)}`;
    assert.deepEqual(Buffer.from(otherMac, 'base64url'), Buffer.from(mac, 'base64url'));
    assert.equal(verifyCsrfToken(SECRET, `${other}.${mac}`, SESSION), false);
    assert.equal(verifyCsrfToken(SECRET, `${nonce}.${otherMac}`, SESSION), false);
  });

  it('refuses a binding that is not a well-formed string', () => {
    assert.equal(verifyCsrfToken(SECRET, token, 'a\uDC00'), false);
    assert.equal(verifyCsrfToken(SECRET, token, null as unknown as string), false);
  });

  it('keeps a binding containing dots apart from a shifted one', () => {
    const dotted = issueCsrfToken(SECRET, 'a.b');
    assert.equal(verifyCsrfToken(SECRET, dotted, 'a.b'), true);
    assert.equal(verifyCsrfToken(SECRET, dotted, 'a'), false);
    assert.equal(verifyCsrfToken(SECRET, dotted, 'a.b.'), false);
  });
});

describe('csrf tokens (properties)', () => {
  const binding = fc.string({ unit: 'binary', maxLength: 64 });

  it('verifyCsrfToken never throws and refuses arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string(), (token, b) => {
        assert.equal(verifyCsrfToken(SECRET, token, b), false);
      }),
    );
  });

  it('verifyCsrfToken never throws on arbitrary token-shaped strings', () => {
    const b64url = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''),
    );
    const shaped = fc
      .tuple(
        fc.string({ unit: b64url, minLength: 22, maxLength: 22 }),
        fc.string({ unit: b64url, minLength: 43, maxLength: 43 }),
      )
      .map(([n, m]) => `${n}.${m}`);
    fc.assert(
      fc.property(shaped, (token) => {
        assert.equal(verifyCsrfToken(SECRET, token, SESSION), false);
      }),
    );
  });

  it('issue → verify round-trips for any binding, and another binding fails', () => {
    fc.assert(
      fc.property(binding, binding, (mine, theirs) => {
        fc.pre(mine !== theirs);
        const token = issueCsrfToken(SECRET, mine);
        assert.equal(verifyCsrfToken(SECRET, token, mine), true);
        assert.equal(verifyCsrfToken(SECRET, token, theirs), false);
      }),
    );
  });
});
