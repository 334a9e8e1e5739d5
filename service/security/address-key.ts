import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key under which a client address is rate limited: an IPv4 address as is (also when written
 * IPv4-mapped, `::ffff:1.2.3.4`), an IPv6 address as its /64 network, since one subscriber
 * usually holds a whole /64 and could otherwise rotate through 2^64 addresses. Anything else
 * (an unparsable address) is kept verbatim.
 *
 * @example addressKey('2001:db8::1') // '2001:db8:0:0::/64'
 */
export function addressKey(address: string): string {
  if (isIPv4(address)) return address;
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare)) return address;
  const groups = hextets(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

function hextets(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const gap = address.indexOf('::');
  if (gap === -1) return parse(address);
  const head = parse(address.slice(0, gap));
  const tail = parse(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
