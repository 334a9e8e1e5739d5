import { ConfigurationError } from './errors.js';

/** Whether a presented string equals one of the secrets a {@link timingSafeMatcher} was made from. */
export type SecretMatcher = (presented: string) => boolean;

/**
 * Prepares secrets known in advance (a token or API keys from configuration) for timing-safe
 * checks: each check takes time that depends on the presented length and the number of secrets
 * only. Neither the contents, nor the position of a difference, nor whether a length matches,
 * nor which secret matched changes the work done. Strings are compared code unit by code unit,
 * as {@link timingSafeEqual} compares two strings, but against code units prepared here once
 * instead of read from the secrets' strings on every check.
 *
 * @param secrets - one secret, or several (e.g. the current and the previous key while rotating).
 * @throws ConfigurationError when there is no secret, or one is not a non-empty string.
 * @example
 * const isAdminToken = timingSafeMatcher(adminToken);
 * const bearer = new HttpBearer({
 *   authenticate: (_request, token) => (isAdminToken(token) ? 'admin' : undefined),
 * });
 */
export function timingSafeMatcher(secrets: string | Iterable<string>): SecretMatcher {
  const prepared = Array.from(typeof secrets === 'string' ? [secrets] : secrets, codeUnits);
  const [only] = prepared;
  if (only === undefined) throw new ConfigurationError('timingSafeMatcher() needs a secret');
  if (prepared.length === 1) return (presented) => difference(presented, only) === 0;
  return (presented) => {
    let matched = 0;
    // Every secret is compared, whichever matched, so the time does not tell which one did.
    for (const secret of prepared) matched |= difference(presented, secret) === 0 ? 1 : 0;
    return matched === 1;
  };
}

/**
 * Prepares secrets as {@link timingSafeMatcher} does, for a check that says which one matched:
 * the index of the secret equal to the presented string, or -1. Every secret is compared whichever
 * matched, so the time does not tell which one did. For vouch's own static credentials; not
 * exported from the package.
 *
 * @throws ConfigurationError when there is no secret, one is not a non-empty string, or one is
 *   given twice.
 */
export function timingSafeIndex(secrets: Iterable<string>): (presented: string) => number {
  const list = Array.from(secrets);
  if (new Set(list).size !== list.length) {
    throw new ConfigurationError('timingSafeIndex() takes each secret once');
  }
  const prepared = list.map(codeUnits);
  if (prepared.length === 0) throw new ConfigurationError('timingSafeIndex() needs a secret');
  return (presented) => {
    // Secrets are distinct, so at most one adds its position; none leaves the sum at zero.
    let found = 0;
    for (let i = 0; i < prepared.length; i++) {
      found += difference(presented, prepared[i] as PreparedSecret) === 0 ? i + 1 : 0;
    }
    return found - 1;
  };
}

/** A secret's code units, padded with zeros to a power of two, and its own length. */
interface PreparedSecret {
  readonly units: Uint16Array;
  readonly length: number;
  /** `units.length - 1`: indexes wrap around within the array. */
  readonly mask: number;
}

function codeUnits(secret: unknown): PreparedSecret {
  if (typeof secret !== 'string' || secret === '') {
    throw new ConfigurationError('timingSafeMatcher() takes secrets as non-empty strings');
  }
  let size = 1;
  while (size < secret.length) size *= 2;
  const units = new Uint16Array(size);
  for (let i = 0; i < secret.length; i++) units[i] = secret.charCodeAt(i);
  return { units, length: secret.length, mask: units.length - 1 };
}

/**
 * Zero when `presented` equals the secret. One loop for every outcome: when the lengths differ,
 * the accumulator starts non-zero and the masked index wraps around the secret, so a mismatched
 * length does the very same work as a matched one.
 */
function difference(presented: string, secret: PreparedSecret): number {
  const { units, mask } = secret;
  let accumulated = presented.length ^ secret.length;
  // Indexes are always within the array: (anything) & mask < units.length.
  for (let i = 0; i < presented.length; i++) {
    accumulated |= presented.charCodeAt(i) ^ (units[i & mask] as number);
  }
  return accumulated;
}
