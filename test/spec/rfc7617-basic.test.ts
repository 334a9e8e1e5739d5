// RFC 7617 (The 'Basic' HTTP Authentication Scheme) with the contract's strictness: canonical
// RFC 4648 base64, strict UTF-8, split at the first colon, no control characters, no
// percent-decoding, and charset="UTF-8" in the challenge.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestView } from '../../src/core/request.js';
import { HttpBasic } from '../../src/http/http-basic.js';
import { encodeBasicCredentials } from '../../src/http/parse-basic-credentials.js';

const request = (authorization: string): RequestView => ({
  method: 'GET',
  url: '/',
  headers: { authorization },
  raw: { rawHeaders: ['Authorization', authorization] },
});

/** A Basic authenticator whose hook accepts everything and records what it saw. */
function basic() {
  const seen: [string, string][] = [];
  const auth = new HttpBasic({
    authenticate: (_request, username, password) => {
      seen.push([username, password]);
      return username;
    },
  });
  return { auth, seen };
}

async function decode(token68: string): Promise<[string, string] | 'rejected'> {
  const { auth, seen } = basic();
  const outcome = await auth.verify(request(`Basic ${token68}`));
  if (outcome.state === 'rejected') {
    assert.deepEqual(seen, [], 'the hook is not called for a refused credential');
    return 'rejected';
  }
  assert.equal(outcome.state, 'accepted');
  assert.equal(seen.length, 1);
  return seen[0]!;
}

const bytes = (...values: number[]): string => Buffer.from(values).toString('base64');
const utf8 = (value: string): string => Buffer.from(value, 'utf8').toString('base64');

describe('RFC 7617 §2: user-pass', () => {
  it('decodes the RFC example (Aladdin:open sesame)', async () => {
    assert.deepEqual(await decode('QWxhZGRpbjpvcGVuIHNlc2FtZQ=='), ['Aladdin', 'open sesame']);
  });

  it('decodes the §2.1 UTF-8 example (test:123£)', async () => {
    assert.deepEqual(await decode('dGVzdDoxMjPCow=='), ['test', '123£']);
  });

  it('splits at the first colon: the password keeps its colons', async () => {
    assert.deepEqual(await decode(utf8('user:pass:with:colons')), ['user', 'pass:with:colons']);
    assert.deepEqual(await decode(utf8('user::')), ['user', ':']);
  });

  it('accepts an empty password', async () => {
    assert.deepEqual(await decode(utf8('user:')), ['user', '']);
  });

  it('rejects an empty username', async () => {
    assert.equal(await decode(utf8(':password')), 'rejected');
  });

  it('rejects a missing colon', async () => {
    assert.equal(await decode(utf8('userpassword')), 'rejected');
  });

  it('never percent-decodes', async () => {
    assert.deepEqual(await decode(utf8('a%40b.c:p%3Aw%')), ['a%40b.c', 'p%3Aw%']);
  });

  describe('control characters reject (CTL in user-id or password)', () => {
    for (const code of [0x00, 0x01, 0x09, 0x0a, 0x0d, 0x1f, 0x7f, 0x80, 0x85, 0x9f]) {
      const ch = String.fromCharCode(code);
      it(`U+${code.toString(16).padStart(4, '0')} in either part`, async () => {
        assert.equal(await decode(utf8(`us${ch}er:pw`)), 'rejected');
        assert.equal(await decode(utf8(`user:p${ch}w`)), 'rejected');
      });
    }
  });
});

describe('RFC 4648 §4 base64, strictly', () => {
  it('accepts canonical encodings with and without padding', async () => {
    assert.deepEqual(await decode('dTpw'), ['u', 'p']);
    assert.deepEqual(await decode('dTpwdw=='), ['u', 'pw']);
    assert.deepEqual(await decode('dTpwd2Q='), ['u', 'pwd']);
  });

  const rejected: readonly [string, string][] = [
    ['non-canonical padding bits (==)', 'dTpwdx=='],
    ['non-canonical padding bits (=)', 'dTpwd2R='],
    ['trailing data after the padding', 'dTpwdw==AAAA'],
    ['a trailing "="', 'dTpwd2Q=='],
    ['missing padding', 'dTpwdw'],
    ['a truncated group', 'dTpwd'],
    ['the base64url alphabet', 'dTp_dw=='],
    ['whitespace inside', 'dTpw\tdw=='],
    ['a dot', 'dTpw.w=='],
  ];
  for (const [label, token68] of rejected) {
    it(`rejects ${label}`, async () => {
      assert.equal(await decode(token68), 'rejected');
    });
  }
});

describe('strict UTF-8: invalid bytes reject, never U+FFFD', () => {
  const invalid: readonly [string, number[]][] = [
    ['an overlong "/" (C0 AF)', [0xc0, 0xaf]],
    ['an overlong NUL (C0 80)', [0xc0, 0x80]],
    ['an overlong 3-byte form (E0 80 AF)', [0xe0, 0x80, 0xaf]],
    ['an overlong 4-byte form (F0 80 80 AF)', [0xf0, 0x80, 0x80, 0xaf]],
    ['a stray continuation byte', [0x80]],
    ['FF', [0xff]],
    ['a UTF-16 surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['a truncated sequence at the end', [0xe2, 0x82]],
    ['beyond U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
    ['Latin-1 "é" (E9)', [0xe9]],
  ];
  for (const [label, invalidBytes] of invalid) {
    it(`rejects ${label}`, async () => {
      assert.equal(await decode(bytes(0x75, 0x3a, ...invalidBytes)), 'rejected');
      assert.equal(await decode(bytes(...invalidBytes, 0x3a, 0x70)), 'rejected');
    });
  }

  it('accepts multi-byte UTF-8 in both parts', async () => {
    assert.deepEqual(await decode(encodeBasicCredentials('Jürgen', 'пароль😀')), [
      'Jürgen',
      'пароль😀',
    ]);
  });
});

describe('RFC 7617 §2 / §2.1: the challenge', () => {
  it('names the realm and charset="UTF-8"', () => {
    const { auth } = basic();
    assert.equal(auth.challenge('api'), 'Basic realm="api", charset="UTF-8"');
    assert.equal(auth.challenge('WallyWorld'), 'Basic realm="WallyWorld", charset="UTF-8"');
  });

  it('matches the scheme word case-insensitively', async () => {
    for (const scheme of ['Basic', 'basic', 'BASIC', 'bAsIc']) {
      const { auth } = basic();
      assert.equal((await auth.verify(request(`${scheme} dTpw`))).state, 'accepted');
    }
  });
});
