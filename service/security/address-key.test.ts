import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { addressKey } from './address-key.js';

test('IPv4 addresses are their own key, also IPv4-mapped', () => {
  assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('::FFFF:cb00:7107'), '203.0.113.7');
  assert.equal(addressKey('0:0:0:0:0:ffff:127.0.0.1'), '127.0.0.1');
});

test('IPv6 addresses are keyed by their /64, however written', () => {
  const key = '2001:db8:0:0::/64';
  for (const address of [
    '2001:db8::1',
    '2001:db8::ffff:1',
    '2001:DB8:0:0:1:2:3:4',
    '2001:db8:0000:0000:abcd::',
    'fe80::1%eth0'.replace('fe80', '2001:db8'),
  ]) {
    assert.equal(addressKey(address), key, address);
  }
  assert.equal(addressKey('2001:db8:0:1::1'), '2001:db8:0:1::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
});

test('anything else is kept verbatim', () => {
  assert.equal(addressKey('unknown'), 'unknown');
  assert.equal(addressKey(''), '');
});

test('any IPv6 spelling gives a /64 or an IPv4 key, and addresses in one /64 share it', () => {
  fc.assert(
    fc.property(fc.ipV6(), (address) => {
      assert.match(addressKey(address), /^([0-9a-f]{1,4}:){4}:\/64$|^\d+\.\d+\.\d+\.\d+$/);
    }),
  );
  const hextet = fc.integer({ min: 0, max: 0xffff }).map((group) => group.toString(16));
  const groups = (n: number) => fc.array(hextet, { minLength: n, maxLength: n });
  fc.assert(
    fc.property(groups(4), groups(4), groups(4), (network, one, two) => {
      fc.pre(network[0] !== '0');
      const a = addressKey([...network, ...one].join(':'));
      const b = addressKey([...network, ...two].join(':'));
      assert.equal(a, b);
      assert.equal(a, `${network.join(':')}::/64`);
    }),
  );
});
