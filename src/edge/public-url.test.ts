import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestView } from '../core/request.js';
import { forwardedOrigin, joinPath, publicOrigin } from './public-url.js';

describe('publicOrigin', () => {
  it('normalises an http(s) origin: lower case, no default port, no trailing slash', () => {
    assert.equal(publicOrigin('https://API.Example.com'), 'https://api.example.com');
    assert.equal(publicOrigin('https://api.example.com:443/'), 'https://api.example.com');
    assert.equal(publicOrigin(new URL('http://127.0.0.1:8080')), 'http://127.0.0.1:8080');
    assert.equal(publicOrigin('https://[::1]:8443'), 'https://[::1]:8443');
  });

  it('refuses what is no origin, at start-up', () => {
    for (const value of [
      'api.example.com',
      'ftp://api.example.com',
      'https://api.example.com/v1',
      'https://api.example.com?x=1',
      'https://api.example.com#top',
      'https://user:pw@api.example.com',
      '',
    ]) {
      assert.throws(() => publicOrigin(value), { code: 'VOUCH_ERR_CONFIGURATION' }, value);
    }
  });
});

describe('forwardedOrigin', () => {
  const view = (
    headers: Record<string, string | string[]>,
    rawHeaders?: string[],
  ): RequestView => ({
    method: 'GET',
    url: '/',
    headers,
    ...(rawHeaders === undefined ? {} : { raw: { rawHeaders } }),
  });

  it('reads one X-Forwarded-Proto and one X-Forwarded-Host', () => {
    for (const [proto, host, expected] of [
      ['https', 'api.example.com', 'https://api.example.com'],
      ['HTTPS', 'api.example.com:8443', 'https://api.example.com:8443'],
      ['http', '127.0.0.1:3000', 'http://127.0.0.1:3000'],
      ['https', '[::1]:8443', 'https://[::1]:8443'],
    ] as const) {
      const headers = { 'x-forwarded-proto': proto, 'x-forwarded-host': host };
      assert.equal(forwardedOrigin(view(headers)), expected, `${proto} ${host}`);
    }
  });

  it('gives none when either is missing, a list, or no scheme or host', () => {
    for (const [proto, host] of [
      ['https', undefined],
      [undefined, 'api.example.com'],
      ['https, http', 'api.example.com'],
      ['https', 'a.example, b.example'],
      ['wss', 'api.example.com'],
      ['https', 'evil.example/path'],
      ['https', 'user@api.example.com'],
      ['https', 'api.example.com:99999'],
      ['https', 'api.example.com:'],
      ['https', ''],
    ]) {
      const headers: Record<string, string> = {};
      if (proto !== undefined) headers['x-forwarded-proto'] = proto;
      if (host !== undefined) headers['x-forwarded-host'] = host;
      assert.equal(forwardedOrigin(view(headers)), undefined, `${proto} ${host}`);
    }
  });

  it('gives none when a header comes on two lines', () => {
    const rawHeaders = [
      'X-Forwarded-Proto',
      'https',
      'X-Forwarded-Host',
      'a.example',
      'x-forwarded-host',
      'a.example',
    ];
    assert.equal(forwardedOrigin(view({}, rawHeaders)), undefined);
    assert.equal(forwardedOrigin(view({}, rawHeaders.slice(0, 4))), 'https://a.example');
  });
});

describe('joinPath', () => {
  it('keeps the path of the target, without query and fragment, normalised', () => {
    for (const [target, expected] of [
      ['/', 'https://api.example/'],
      ['/mcp?session=1', 'https://api.example/mcp'],
      ['/a/b#frag', 'https://api.example/a/b'],
      ['/a/./b/../c', 'https://api.example/a/c'],
      ['/caf%C3%A9', 'https://api.example/caf%C3%A9'],
      ['//evil.example/x', 'https://api.example//evil.example/x'],
      ['/\\evil.example', 'https://api.example//evil.example'],
      ['http://other.example:81/p?q', 'https://api.example/p'],
    ] as const) {
      assert.equal(joinPath('https://api.example', target), expected, target);
    }
  });

  it('gives none for a target with no path', () => {
    for (const target of ['*', 'api.example:443', 'ftp://api.example/x', '']) {
      assert.equal(joinPath('https://api.example', target), undefined, target);
    }
  });
});
