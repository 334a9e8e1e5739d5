import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { trustedProxies } from './trusted-proxies.js';

describe('trustedProxies (Express trust proxy syntax, through proxy-addr)', () => {
  it('trusts the addresses, ranges and names listed, and nothing else', () => {
    const cases: readonly [Parameters<typeof trustedProxies>[0], string, boolean][] = [
      ['loopback', '127.0.0.1', true],
      ['loopback', '::1', true],
      ['loopback', '::ffff:127.0.0.1', true],
      ['loopback', '10.0.0.1', false],
      [['10.0.0.0/8', 'fd00::/8'], '10.1.2.3', true],
      [['10.0.0.0/8', 'fd00::/8'], 'fd00::5', true],
      [['10.0.0.0/8', 'fd00::/8'], '11.0.0.1', false],
      ['10.0.0.1, 10.0.0.2', '10.0.0.2', true],
      ['uniquelocal', '192.168.1.1', true],
      [[], '127.0.0.1', false],
      [undefined, '127.0.0.1', false],
      ['loopback', 'localhost', false],
      ['loopback', '', false],
    ];
    for (const [proxies, address, expected] of cases) {
      assert.equal(trustedProxies(proxies)(address), expected, `${String(proxies)} ${address}`);
    }
  });

  it('trusts no peer that has no address', () => {
    assert.equal(trustedProxies('loopback')(undefined), false);
  });

  it('refuses an entry it cannot read, at start-up', () => {
    for (const proxies of ['nowhere', ['10.0.0.0/33'], [42 as unknown as string]]) {
      assert.throws(() => trustedProxies(proxies), {
        code: 'VOUCH_ERR_CONFIGURATION',
        message: /^edge trustedProxies: /,
      });
    }
  });
});
