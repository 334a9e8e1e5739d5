/**
 * Milliseconds from `now` until `expiresAt`, rounded up (so that a claim still alive never gets
 * 0, which Redis's `PX` refuses); 0 or less once `expiresAt` is not in the future. Throws a
 * `TypeError` when `expiresAt` is not a finite number: NaN compares as expired and Infinity as
 * never, so either would let a store remember a proof wrongly; both are a caller's bug.
 */
export function timeLeft(expiresAt: number, now: number): number {
  if (!Number.isFinite(expiresAt)) {
    throw new TypeError(`a DPoP replay claim needs a finite expiresAt, not ${String(expiresAt)}`);
  }
  return Math.ceil(expiresAt - now);
}
