import { timingSafeEqual as nodeTimingSafeEqual } from 'node:crypto';

function bytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

/**
 * Compares a presented secret with the expected one in time that depends on the presented
 * length only: neither the contents nor the position of the first difference, nor whether the
 * lengths match, changes how long it takes.
 *
 * @param presented - what the caller sent (its length is the caller's own knowledge).
 * @param expected - the secret it must equal.
 * @example if (timingSafeEqual(token, expected)) return user;
 */
export function timingSafeEqual(
  presented: string | Uint8Array,
  expected: string | Uint8Array,
): boolean {
  const left = bytes(presented);
  const right = bytes(expected);
  if (left.length !== right.length) {
    // Same work as an equal-length comparison, so a length mismatch is not visible either.
    nodeTimingSafeEqual(left, left);
    return false;
  }
  return nodeTimingSafeEqual(left, right);
}
