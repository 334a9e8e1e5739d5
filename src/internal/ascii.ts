const UPPER_A = 0x41;
const UPPER_Z = 0x5a;

/**
 * Whether `value` begins with `lower` when ASCII letters are folded to lower case, and only
 * those: HTTP scheme words and header names are ASCII tokens, and Unicode case folding (U+212A
 * KELVIN SIGN → "k") must not make another word match. Allocates nothing.
 *
 * @param lower - the expected text, already in lower case.
 */
export function startsWithFolded(value: string, lower: string): boolean {
  if (value.length < lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    let c = value.charCodeAt(i);
    if (c >= UPPER_A && c <= UPPER_Z) c += 0x20;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}
