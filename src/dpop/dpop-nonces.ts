import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { wholeNumber } from '../core/configuration-checks.js';
import { ConfigurationError } from '../core/errors.js';
import { timingSafeEqual } from '../core/timing-safe-equal.js';
import { utf8 } from '../core/utf8.js';
import { toBase64url } from '../internal/base64.js';

/** Options of server-provided DPoP nonces (RFC 9449 §8, §9). */
export interface DPoPNonceOptions {
  /**
   * The secret nonces are derived from, at least 32 bytes (or characters): every instance given
   * the same secret issues and accepts the same nonces, with nothing shared but it.
   */
  readonly secret: string | Uint8Array;
  /** Seconds one nonce is issued for (default 300); it is accepted for twice as long. */
  readonly lifetime?: number;
}

/** Issues the nonce of the moment, and tells a nonce of the moment from any other. */
export interface DPoPNonces {
  /** The nonce to hand a client at `now` (milliseconds since the epoch). */
  issue(now: number): string;
  /** Whether `nonce` is one issued lately: in this window, the one before, or the next. */
  accepts(nonce: string, now: number): boolean;
}

const MIN_SECRET_LENGTH = 32;

/**
 * Stateless DPoP nonces: time is cut into windows of `lifetime` seconds, and the nonce of a
 * window is the base64url HMAC-SHA-256 of its number under the secret. A nonce is accepted in
 * its window and the next (so it lives one to two lifetimes), and in the window before its own,
 * so an instance whose clock runs a little behind another's takes that one's fresh nonces.
 */
export function dpopNonces(options: DPoPNonceOptions): DPoPNonces {
  const { secret } = options as { secret: unknown };
  if (!(typeof secret === 'string' || secret instanceof Uint8Array)) {
    throw new ConfigurationError('DPoPBearer nonces secret must be a string or a Uint8Array');
  }
  const key = typeof secret === 'string' ? utf8(secret) : secret;
  if (key.length < MIN_SECRET_LENGTH) {
    throw new ConfigurationError(
      `DPoPBearer nonces secret must be at least ${MIN_SECRET_LENGTH} bytes long`,
    );
  }
  const lifetime = wholeNumber(options.lifetime, 300, 'DPoPBearer nonces lifetime', {
    unit: 'seconds',
    positive: true,
  });
  // Keyed once, copied per nonce: later changes to the caller's bytes change nothing.
  const keyed = hmac.create(sha256, key.slice());
  const nonceOf = (window: number): string =>
    toBase64url(
      keyed
        .clone()
        .update(utf8(`dpop-nonce:${window}`))
        .digest(),
    );
  // The nonces of the windows around the current one, made again when it moves on.
  let current = Number.NaN;
  let around: readonly [string, string, string] = ['', '', ''];
  const windowAt = (now: number): readonly [string, string, string] => {
    const window = Math.floor(now / 1000 / lifetime);
    if (window !== current) {
      current = window;
      around = [nonceOf(window - 1), nonceOf(window), nonceOf(window + 1)];
    }
    return around;
  };
  return {
    issue: (now) => windowAt(now)[1],
    accepts(nonce, now) {
      let matched = false;
      // Every one compared, in constant time: a near miss says nothing of the next nonce.
      for (const known of windowAt(now)) matched = timingSafeEqual(nonce, known) || matched;
      return matched;
    },
  };
}
