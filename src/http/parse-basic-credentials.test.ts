import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeBasicCredentials, parseBasicCredentials } from './parse-basic-credentials.js';

const b64 = (bytes: readonly number[]): string => Buffer.from(bytes).toString('base64');
const text = (value: string): string => Buffer.from(value, 'utf8').toString('base64');

describe('parseBasicCredentials', () => {
  it('decodes user:pass', () => {
    assert.deepEqual(parseBasicCredentials('dXNlcjpwYXNz'), { username: 'user', password: 'pass' });
  });

  it('splits at the first colon, so passwords keep theirs', () => {
    assert.deepEqual(parseBasicCredentials(text('user:pa:ss:')), {
      username: 'user',
      password: 'pa:ss:',
    });
    assert.deepEqual(parseBasicCredentials(text('u::')), { username: 'u', password: ':' });
  });

  it('accepts an empty password', () => {
    assert.deepEqual(parseBasicCredentials(text('user:')), { username: 'user', password: '' });
  });

  it('refuses an empty username, a missing colon and empty input', () => {
    assert.equal(parseBasicCredentials(text(':pass')), undefined);
    assert.equal(parseBasicCredentials(text(':')), undefined);
    assert.equal(parseBasicCredentials(text('userpass')), undefined);
    assert.equal(parseBasicCredentials(''), undefined);
  });

  it('decodes UTF-8 usernames and passwords', () => {
    assert.deepEqual(parseBasicCredentials(text('josé:pässwörd😀')), {
      username: 'josé',
      password: 'pässwörd😀',
    });
  });

  it('keeps a leading byte order mark as part of the username', () => {
    assert.deepEqual(parseBasicCredentials(text('\ufeffuser:pw')), {
      username: '\ufeffuser',
      password: 'pw',
    });
  });

  it('never percent-decodes', () => {
    assert.deepEqual(parseBasicCredentials(text('us%3Aer:p%20w%')), {
      username: 'us%3Aer',
      password: 'p%20w%',
    });
  });

  describe('strict base64', () => {
    const rejected: readonly [string, string][] = [
      ['missing padding', 'dTpwdw'],
      ['half padding', 'dTpwdw='],
      ['extra padding', 'dTpwdw==='],
      ['data after the padding', 'dTpwdw==dTpw'],
      ['padding in the middle', 'dT==dTpw'],
      ['a lone trailing character', 'dTpwd'],
      ['non-canonical bits before ==', 'dTpwdx=='],
      ['non-canonical bits before =', 'dTpwd2R='],
      ['a space inside', 'dTpw dw=='],
      ['a trailing newline', 'dTpwdw==\n'],
      ['a leading space', ' dTpwdw=='],
      ['the URL-safe alphabet', 'dTpw-w=='],
      ['a non-base64 character', 'dTpw*w=='],
    ];
    for (const [label, token] of rejected) {
      it(`refuses ${label}`, () => {
        assert.equal(parseBasicCredentials(token), undefined);
      });
    }

    it('refuses non-canonical encodings that a lenient decoder accepts', () => {
      // Node's decoder ignores the stray bits, so these really are "the same" bytes.
      assert.equal(Buffer.from('dTpwdx==', 'base64').toString(), 'u:pw');
      assert.equal(Buffer.from('dTpwd2R=', 'base64').toString(), 'u:pwd');
      assert.deepEqual(parseBasicCredentials('dTpwdw=='), { username: 'u', password: 'pw' });
      assert.deepEqual(parseBasicCredentials('dTpwd2Q='), { username: 'u', password: 'pwd' });
    });

    it('refuses URL-safe replacements of "+" and "/"', () => {
      const standard = encodeBasicCredentials('u', 'p???>>>');
      assert.match(standard, /[+/]/);
      assert.ok(parseBasicCredentials(standard));
      const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_');
      assert.equal(parseBasicCredentials(urlSafe), undefined);
    });
  });

  describe('strict UTF-8 (no U+FFFD substitution)', () => {
    const prefix = [0x75, 0x3a]; // "u:"
    const rejected: readonly [string, number[]][] = [
      ['an overlong "/"', [0xc0, 0xaf]],
      ['an overlong NUL', [0xc0, 0x80]],
      ['a three-byte overlong', [0xe0, 0x80, 0xaf]],
      ['a lone continuation byte', [0x80]],
      ['0xFF', [0xff]],
      ['0xFE', [0xfe]],
      ['an encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a truncated sequence', [0xe2, 0x82]],
      ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ];
    for (const [label, bytes] of rejected) {
      it(`refuses ${label} in the password`, () => {
        assert.equal(parseBasicCredentials(b64([...prefix, ...bytes])), undefined);
      });
      it(`refuses ${label} in the username`, () => {
        assert.equal(parseBasicCredentials(b64([...bytes, ...prefix])), undefined);
      });
    }

    it('accepts a genuine U+FFFD sent as UTF-8', () => {
      assert.deepEqual(parseBasicCredentials(b64([...prefix, 0xef, 0xbf, 0xbd])), {
        username: 'u',
        password: '\ufffd',
      });
    });
  });

  describe('control characters', () => {
    const controls = ['\u0000', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085'];
    for (const control of controls) {
      const label = `U+${control.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
      it(`refuses ${label} in the username`, () => {
        assert.equal(parseBasicCredentials(text(`us${control}er:pw`)), undefined);
      });
      it(`refuses ${label} in the password`, () => {
        assert.equal(parseBasicCredentials(text(`user:p${control}w`)), undefined);
      });
    }
    it('refuses U+009F, the last C1 control', () => {
      assert.equal(parseBasicCredentials(text('user:\u009f')), undefined);
    });

    it('accepts spaces and U+00A0, which are not controls', () => {
      assert.deepEqual(parseBasicCredentials(text('a b:c\u00a0d ')), {
        username: 'a b',
        password: 'c\u00a0d ',
      });
    });
  });
});

describe('encodeBasicCredentials', () => {
  it('encodes user:pass as UTF-8 base64', () => {
    assert.equal(encodeBasicCredentials('user', 'pass'), 'dXNlcjpwYXNz');
    assert.equal(encodeBasicCredentials('josé', 'é'), text('josé:é'));
  });

  it('round-trips through parseBasicCredentials', () => {
    assert.deepEqual(parseBasicCredentials(encodeBasicCredentials('user', 'a:b:c')), {
      username: 'user',
      password: 'a:b:c',
    });
  });
});
