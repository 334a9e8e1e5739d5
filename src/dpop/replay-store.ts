/**
 * Where the DPoP proofs already seen are remembered (RFC 9449 §11.1): one store shared by every
 * instance of a service, or a proof replayed on another instance is accepted there.
 */
export interface ReplayStore {
  /**
   * Records `key` as used until `expiresAt` (milliseconds since the epoch), atomically: `true`
   * when it was unused (the proof is fresh), `false` when it was already recorded and has not
   * expired (a replay). An `expiresAt` not in the future is `false` too, nothing recorded: a
   * proof the store cannot remember for any time is refused as a replay would be. Throws
   * `StoreUnavailableError` when it cannot tell, a `TypeError` when `expiresAt` is not finite.
   * `key` is a digest the caller made; stores never log it.
   */
  claim(key: string, expiresAt: number): boolean | Promise<boolean>;
}
