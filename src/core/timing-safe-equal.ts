import { createHash, timingSafeEqual as nodeTimingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in time that depends on neither their contents nor where they differ.
 * Both sides are hashed first, so unequal lengths leak nothing either.
 *
 * @example if (timingSafeEqual(token, expected)) return user;
 */
export function timingSafeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return nodeTimingSafeEqual(left, right);
}
