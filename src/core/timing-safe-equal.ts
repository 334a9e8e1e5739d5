import { utf8 } from './utf8.js';

/**
 * Compares a presented secret with the expected one in time that depends on the presented
 * length only: neither the contents nor the position of the first difference, nor whether the
 * lengths match, changes how long it takes. Two strings are compared code unit by code unit;
 * a string and bytes, as the string's UTF-8 encoding.
 *
 * @param presented - what the caller sent (its length is the caller's own knowledge).
 * @param expected - the secret it must equal.
 * @example if (timingSafeEqual(token, expected)) return user;
 */
export function timingSafeEqual(
  presented: string | Uint8Array,
  expected: string | Uint8Array,
): boolean {
  if (typeof presented === 'string' && typeof expected === 'string') {
    return equalStrings(presented, expected);
  }
  return equalBytes(bytes(presented), bytes(expected));
}

// Strings are compared in place: encoding both into bytes would allocate on every check and map
// every lone surrogate to U+FFFD, making different strings equal. Both loops fold every
// difference into one accumulator and never exit early, and neither needs a runtime's crypto
// module, so the same code runs on Node, Bun, Deno and Workers.
function equalStrings(presented: string, expected: string): boolean {
  const length = presented.length;
  let difference = length ^ expected.length;
  // On a length mismatch the presented string is walked against itself: the same work, and the
  // accumulator is already non-zero.
  const other = difference === 0 ? expected : presented;
  for (let i = 0; i < length; i++) {
    difference |= presented.charCodeAt(i) ^ other.charCodeAt(i);
  }
  return difference === 0;
}

function equalBytes(presented: Uint8Array, expected: Uint8Array): boolean {
  const length = presented.length;
  let difference = length ^ expected.length;
  // As for strings: a length mismatch walks the presented bytes against themselves.
  const other = difference === 0 ? expected : presented;
  for (let i = 0; i < length; i++) {
    difference |= (presented[i] as number) ^ (other[i] as number);
  }
  return difference === 0;
}

function bytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? utf8(value) : value;
}
