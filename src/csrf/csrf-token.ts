import { createHmac, randomBytes } from 'node:crypto';
import { ConfigurationError } from '../core/errors.js';
import { timingSafeEqual } from '../core/timing-safe-equal.js';

/**
 * The server secret that signs CSRF tokens. With a list, the first signs and every one verifies,
 * so a secret can be rotated without logging everybody out.
 *
 * @example const secret: CsrfSecret = [process.env.CSRF_SECRET!, process.env.CSRF_SECRET_OLD!];
 */
export type CsrfSecret = string | Uint8Array | readonly (string | Uint8Array)[];

/** Secrets checked and copied into buffers, the signing one first. */
export type CsrfKeys = readonly [Buffer, ...Buffer[]];

// 16 bytes are 22 base64url characters and 32 bytes are 43; the last character of each carries
// padding bits that must be zero, so only the canonical spelling of a token is accepted.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{21}[AQgw]\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
const NONCE_LENGTH = 22;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks a {@link CsrfSecret} and copies it, so later changes to the caller's buffers do not
 * change the keys. Throws {@link ConfigurationError} for an empty secret or an empty list.
 */
export function csrfKeys(secret: CsrfSecret): CsrfKeys {
  const list: readonly unknown[] = isSecretList(secret) ? secret : [secret];
  const keys = list.map((entry, index) => {
    if (typeof entry === 'string' && entry !== '') return Buffer.from(entry, 'utf8');
    if (entry instanceof Uint8Array && entry.length > 0) return Buffer.from(entry);
    const which = list.length === 1 ? 'the CSRF secret' : `CSRF secret #${index}`;
    throw new ConfigurationError(`${which} must be a non-empty string or Uint8Array`);
  });
  const [first, ...rest] = keys;
  if (first === undefined) throw new ConfigurationError('the CSRF secret list is empty');
  return [first, ...rest];
}

function isSecretList(secret: CsrfSecret): secret is readonly (string | Uint8Array)[] {
  return Array.isArray(secret);
}

/**
 * Issues a CSRF token bound to `binding` (the session id or API key) and signed with the first
 * secret: `base64url(16 random bytes) + '.' + base64url(HMAC-SHA256)`.
 *
 * @example const token = issueCsrfToken(secret, sessionId);
 */
export function issueCsrfToken(secret: CsrfSecret, binding: string): string {
  return issueWithKeys(csrfKeys(secret), binding);
}

/**
 * Whether `token` was issued for `binding` under any of the secrets. Never throws: a malformed
 * token, a token for another binding or an unusable secret is simply `false`.
 *
 * @example if (!verifyCsrfToken(secret, request.headers['x-csrftoken'], sessionId)) deny();
 */
export function verifyCsrfToken(secret: CsrfSecret, token: string, binding: string): boolean {
  let keys: CsrfKeys;
  try {
    keys = csrfKeys(secret);
  } catch {
    return false;
  }
  return verifyWithKeys(keys, token, binding);
}

/** {@link issueCsrfToken} over keys already checked by {@link csrfKeys}. */
export function issueWithKeys(keys: CsrfKeys, binding: string): string {
  // UTF-8 maps every lone surrogate to U+FFFD, so two such bindings would share their tokens.
  if (typeof binding !== 'string' || LONE_SURROGATE.test(binding)) {
    throw new TypeError('a CSRF binding must be a well-formed string');
  }
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${mac(keys[0], nonce, binding)}`;
}

/** {@link verifyCsrfToken} over keys already checked by {@link csrfKeys}. */
export function verifyWithKeys(keys: CsrfKeys, token: unknown, binding: unknown): boolean {
  if (typeof token !== 'string' || typeof binding !== 'string') return false;
  if (!TOKEN_SHAPE.test(token) || LONE_SURROGATE.test(binding)) return false;
  const nonce = token.slice(0, NONCE_LENGTH);
  const presented = token.slice(NONCE_LENGTH + 1);
  // Every key is tried, so the time taken does not say which one (if any) matched.
  let valid = false;
  for (const key of keys) {
    if (timingSafeEqual(presented, mac(key, nonce, binding))) valid = true;
  }
  return valid;
}

function mac(key: Buffer, nonce: string, binding: string): string {
  return createHmac('sha256', key).update(`vouch-csrf.${nonce}.${binding}`).digest('base64url');
}
