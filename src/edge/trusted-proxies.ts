import proxyAddr from 'proxy-addr';
import { ConfigurationError } from '../core/errors.js';

/**
 * The proxies an application trusts, in Express's `trust proxy` syntax (proxy-addr's): addresses,
 * CIDR ranges (`10.0.0.0/8`, `fd00::/8`) and the names `loopback`, `linklocal` and `uniquelocal`,
 * as a list or one comma-separated string.
 */
export type TrustedProxies = string | readonly string[];

/**
 * Whether a peer address is one of `proxies`; an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`)
 * counts as its IPv4 address, and anything that is no address is untrusted. Throws a
 * {@link ConfigurationError} for an entry proxy-addr cannot read.
 */
export function trustedProxies(proxies: TrustedProxies = []): (address: unknown) => boolean {
  let trusts: (address: string, hop: number) => boolean;
  try {
    // A string is a comma-separated list, as Express splits it before proxy-addr reads it.
    const list =
      typeof proxies === 'string' ? proxies.split(',').map((one) => one.trim()) : proxies;
    trusts = proxyAddr.compile([...list]);
  } catch (error) {
    // proxy-addr says what it cannot read in a TypeError ("invalid IP address: …").
    throw new ConfigurationError(`edge trustedProxies: ${(error as TypeError).message}`);
  }
  // The peer is the first hop: proxy-addr's `hop` counts from the socket.
  return (address) => typeof address === 'string' && trusts(address, 0);
}
