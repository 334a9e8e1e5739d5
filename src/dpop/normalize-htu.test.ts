import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalizeHtu } from './normalize-htu.js';

describe('normalizeHtu (RFC 3986 §6.2.2, §6.2.3)', () => {
  const same: readonly [string, string][] = [
    ['https://api.test/mcp', 'https://api.test/mcp'],
    ['HTTPS://API.Test/mcp', 'https://api.test/mcp'],
    ['https://api.test:443/mcp', 'https://api.test/mcp'],
    ['http://api.test:80/mcp', 'http://api.test/mcp'],
    ['https://api.test:8443/mcp', 'https://api.test:8443/mcp'],
    ['https://api.test', 'https://api.test/'],
    ['https://api.test/a/./b/../c', 'https://api.test/a/c'],
    ['https://api.test/%7Euser/%6dcp', 'https://api.test/~user/mcp'],
    ['https://api.test/a%2fb%c3%a9', 'https://api.test/a%2Fb%C3%A9'],
    ['https://api.test/a b', 'https://api.test/a%20b'],
    ['https://[::1]:443/x', 'https://[::1]/x'],
  ];
  for (const [given, normal] of same) {
    it(`${given} → ${normal}`, () => {
      assert.equal(normalizeHtu(given), normal);
    });
  }

  const refused = [
    'https://api.test/mcp?',
    'https://api.test/mcp?a=1',
    'https://api.test/mcp#',
    'https://api.test/mcp#f',
    'https://user:pw@api.test/mcp',
    'https://user@api.test/mcp',
    'ftp://api.test/mcp',
    'wss://api.test/mcp',
    '/mcp',
    'api.test/mcp',
    '',
  ];
  for (const given of refused) {
    it(`refuses ${JSON.stringify(given)}`, () => {
      assert.equal(normalizeHtu(given), undefined);
    });
  }

  it('never throws, and is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl({ withQueryParameters: false })), (value) => {
        const once = normalizeHtu(value);
        if (once !== undefined) assert.equal(normalizeHtu(once), once);
      }),
    );
  });
});
