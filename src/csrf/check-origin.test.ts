import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { errorCodes } from '../core/errors.js';
import type { HeaderMap } from '../core/request.js';
import { hasTrustedOrigin, isTrustedOrigin, normalizeOrigins } from './check-origin.js';

const TRUSTED = ['https://app.example.com', 'http://localhost:3000'];

describe('isTrustedOrigin', () => {
  const cases: [string, HeaderMap, boolean][] = [
    // Sec-Fetch-Site decides when present.
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, true],
    ['Sec-Fetch-Site none (typed or bookmarked)', { 'sec-fetch-site': 'none' }, true],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, false],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, false],
    ['Sec-Fetch-Site in another case', { 'sec-fetch-site': 'Same-Origin' }, false],
    ['Sec-Fetch-Site joined by the parser', { 'sec-fetch-site': 'same-origin, none' }, false],
    ['Sec-Fetch-Site repeated', { 'sec-fetch-site': ['same-origin', 'same-origin'] }, false],
    ['Sec-Fetch-Site as a one-line array', { 'sec-fetch-site': ['same-origin'] }, true],
    [
      'cross-site even with a trusted Origin',
      { 'sec-fetch-site': 'cross-site', origin: 'https://app.example.com' },
      false,
    ],
    // Without it, Origin must be trusted.
    ['trusted Origin', { origin: 'https://app.example.com' }, true],
    ['second trusted Origin', { origin: 'http://localhost:3000' }, true],
    ['Origin with the default port spelled out', { origin: 'https://app.example.com:443' }, true],
    ['Origin in upper case', { origin: 'HTTPS://APP.EXAMPLE.COM' }, true],
    ['untrusted Origin', { origin: 'https://evil.example' }, false],
    ['Origin on another port', { origin: 'https://app.example.com:8443' }, false],
    ['Origin with another scheme', { origin: 'http://app.example.com' }, false],
    ['a subdomain of a trusted Origin', { origin: 'https://x.app.example.com' }, false],
    ['a suffix of a trusted Origin', { origin: 'https://app.example.com.evil' }, false],
    ['Origin: null', { origin: 'null' }, false],
    ['Origin that is no URL', { origin: 'app.example.com' }, false],
    ['Origin with a non-http scheme', { origin: 'file:///etc/passwd' }, false],
    [
      'Origin of a blob URL of a trusted page',
      { origin: 'blob:https://app.example.com/0b0c' },
      false,
    ],
    ['Origin repeated', { origin: ['https://app.example.com', 'https://app.example.com'] }, false],
    [
      'untrusted Origin wins over a trusted Referer',
      {
        origin: 'https://evil.example',
        referer: 'https://app.example.com/page',
      },
      false,
    ],
    // Without Origin, the Referer's origin.
    ['trusted Referer', { referer: 'https://app.example.com/account?tab=1#x' }, true],
    ['untrusted Referer', { referer: 'https://evil.example/app.example.com' }, false],
    ['relative Referer', { referer: '/account' }, false],
    ['Referer that is no URL', { referer: 'not a url' }, false],
    ['Referer repeated', { referer: ['https://app.example.com/', 'https://evil.example/'] }, false],
    [
      'empty Origin falls back to Referer',
      { origin: '', referer: 'https://app.example.com/' },
      true,
    ],
    // Nothing to go on.
    ['no header at all', {}, false],
    ['only Host', { host: 'app.example.com' }, false],
    [
      'only forwarded host headers',
      { host: 'app.example.com', 'x-forwarded-host': 'app.example.com' },
      false,
    ],
  ];
  for (const [name, headers, expected] of cases) {
    it(`${expected ? 'trusts' : 'refuses'} ${name}`, () => {
      assert.equal(isTrustedOrigin(headers, TRUSTED), expected);
    });
  }

  it('never matches configured entries that are not bare origins', () => {
    const headers = { origin: 'https://app.example.com' };
    assert.equal(isTrustedOrigin(headers, ['https://app.example.com/path']), false);
    assert.equal(isTrustedOrigin(headers, ['app.example.com', 'null']), false);
    assert.equal(isTrustedOrigin(headers, ['bogus', 'https://app.example.com/']), true);
    assert.equal(isTrustedOrigin(headers, []), false);
  });

  it('refuses a Referer repeated on the raw lines, of which Node keeps only the first', () => {
    const request = {
      method: 'POST',
      url: '/',
      headers: { referer: 'https://app.example.com/' },
      raw: {
        rawHeaders: ['Referer', 'https://app.example.com/', 'referer', 'https://evil.example/'],
      },
    };
    const trusted = new Set(normalizeOrigins(TRUSTED));
    assert.equal(hasTrustedOrigin(request, trusted), false);
    assert.equal(
      hasTrustedOrigin(
        { ...request, raw: { rawHeaders: ['Referer', 'https://app.example.com/'] } },
        trusted,
      ),
      true,
    );
  });

  it('never throws on arbitrary header values (property)', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.webUrl(),
      fc.constantFrom('same-origin', 'none', 'null', 'https://app.example.com'),
      fc.array(fc.string(), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(
        fc.record({ 'sec-fetch-site': value, origin: value, referer: value }, { requiredKeys: [] }),
        (headers) => {
          assert.equal(typeof isTrustedOrigin(headers, TRUSTED), 'boolean');
        },
      ),
    );
  });

  it('trusts no web URL outside the list when Sec-Fetch-Site is absent (property)', () => {
    fc.assert(
      fc.property(fc.webUrl(), fc.boolean(), (url, asOrigin) => {
        const headers = asOrigin ? { origin: url } : { referer: url };
        const expected = new URL(url).origin === 'https://app.example.com';
        assert.equal(isTrustedOrigin(headers, ['https://app.example.com']), expected);
      }),
    );
  });
});

describe('normalizeOrigins', () => {
  it('normalises case, default ports and a trailing slash, and drops duplicates', () => {
    assert.deepEqual(
      normalizeOrigins([
        'https://App.Example.com:443/',
        'https://app.example.com',
        'http://localhost:3000',
        'http://[::1]:80',
      ]),
      ['https://app.example.com', 'http://localhost:3000', 'http://[::1]'],
    );
  });

  it('accepts an empty list (only Sec-Fetch-Site can pass then)', () => {
    assert.deepEqual(normalizeOrigins([]), []);
  });

  const bad: [string, unknown, RegExp][] = [
    ['a path', 'https://app.example.com/app', /"https:\/\/app\.example\.com\/app"/],
    ['a query', 'https://app.example.com?x=1', /\?x=1/],
    ['an empty query', 'https://app.example.com/?', /app\.example\.com\/\?/],
    ['a fragment', 'https://app.example.com#top', /#top/],
    ['credentials', 'https://user:pw@app.example.com', /user:pw@/],
    ['a username', 'https://user@app.example.com', /user@/],
    ['no scheme', 'app.example.com', /"app\.example\.com"/],
    ['another scheme', 'ftp://app.example.com', /ftp:/],
    ['null', 'null', /"null"/],
    ['the empty string', '', /""/],
    ['a wildcard', '*', /"\*"/],
    ['a non-string', 42, /of type number/],
  ];
  for (const [name, entry, message] of bad) {
    it(`refuses an origin with ${name}, naming it`, () => {
      assert.throws(
        () => normalizeOrigins(['https://fine.example', entry as string]),
        (error) => {
          assert.equal((error as { code?: string }).code, errorCodes.configuration);
          assert.match((error as Error).message, message);
          return true;
        },
      );
    });
  }

  it('refuses something that is not a list', () => {
    assert.throws(() => normalizeOrigins('https://app.example.com' as unknown as string[]), {
      code: errorCodes.configuration,
    });
  });
});
