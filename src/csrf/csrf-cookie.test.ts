import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSetCookie } from 'cookie';
import { errorCodes } from '../core/errors.js';
import { clearCsrfCookie, csrfCookie } from './csrf-cookie.js';
import { issueCsrfToken } from './csrf-token.js';

const TOKEN = issueCsrfToken('secret', 'session');

describe('csrfCookie', () => {
  it('sets csrftoken on / with SameSite=Lax, readable by the page (not HttpOnly)', () => {
    const header = csrfCookie(TOKEN);
    assert.equal(header, `csrftoken=${TOKEN}; Path=/; SameSite=Lax`);
    assert.doesNotMatch(header, /HttpOnly/i);
  });

  it('carries the token unchanged (base64url needs no encoding)', () => {
    assert.equal(parseSetCookie(csrfCookie(TOKEN)).value, TOKEN);
  });

  it('applies every option', () => {
    const header = csrfCookie(TOKEN, {
      name: 'XSRF-TOKEN',
      secure: true,
      path: '/app',
      sameSite: 'strict',
      maxAge: 3600,
      domain: 'example.com',
    });
    assert.deepEqual(parseSetCookie(header), {
      name: 'XSRF-TOKEN',
      value: TOKEN,
      secure: true,
      path: '/app',
      sameSite: 'strict',
      maxAge: 3600,
      domain: 'example.com',
    });
    assert.doesNotMatch(header, /HttpOnly/i);
  });

  it('leaves Secure off when secure is false', () => {
    assert.doesNotMatch(csrfCookie(TOKEN, { secure: false }), /Secure/);
  });

  const bad: [string, Parameters<typeof csrfCookie>[1]][] = [
    ['name', { name: 'bad name' }],
    ['path', { path: '/a;b' }],
    ['domain', { domain: 'exa mple.com' }],
    ['maxAge', { maxAge: 1.5 }],
  ];
  for (const [what, options] of bad) {
    it(`throws a configuration error for a bad ${what}`, () => {
      assert.throws(
        () => csrfCookie(TOKEN, options),
        (error) => {
          assert.equal((error as { code?: string }).code, errorCodes.configuration);
          assert.ok((error as Error).cause instanceof TypeError);
          return true;
        },
      );
    });
  }
});

describe('clearCsrfCookie', () => {
  it('expires the cookie at once, with the default attributes', () => {
    assert.equal(
      clearCsrfCookie(),
      'csrftoken=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    );
  });

  it('matches the name, path and domain it was set with', () => {
    const cleared = parseSetCookie(
      clearCsrfCookie({ name: 'XSRF-TOKEN', path: '/app', domain: 'example.com', maxAge: 60 }),
    );
    assert.equal(cleared.name, 'XSRF-TOKEN');
    assert.equal(cleared.value, '');
    assert.equal(cleared.path, '/app');
    assert.equal(cleared.domain, 'example.com');
    assert.equal(cleared.maxAge, 0);
    assert.equal(cleared.expires?.getTime(), 0);
  });
});
