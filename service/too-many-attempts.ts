/** Too many failed sign-in attempts from this address or for this username (429). */
export class TooManyAttemptsError extends Error {
  readonly code = 'VOUCH_SERVICE_TOO_MANY_ATTEMPTS';
  /** Seconds until the next attempt may succeed. */
  readonly retryAfter: number;

  constructor(retryAfter: number) {
    super('Too Many Requests');
    this.name = 'TooManyAttemptsError';
    this.retryAfter = Math.max(1, Math.ceil(retryAfter));
  }
}
