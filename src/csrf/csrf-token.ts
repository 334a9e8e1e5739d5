import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ConfigurationError } from '../core/errors.js';
import { timingSafeEqual } from '../core/timing-safe-equal.js';
import { toBase64url } from '../internal/base64.js';
import { utf8 } from '../core/utf8.js';

/**
 * The server secret that signs CSRF tokens. With a list, the first signs and every one verifies,
 * so a secret can be rotated without logging everybody out.
 *
 * @example const secret: CsrfSecret = [process.env.CSRF_SECRET!, process.env.CSRF_SECRET_OLD!];
 */
export type CsrfSecret = string | Uint8Array | readonly (string | Uint8Array)[];

/**
 * Secrets checked and turned into signers, the signing one first. Each signer is an HMAC-SHA-256
 * keyed once (so later changes to the caller's bytes do not change it) and copied for every
 * message, which saves hashing the key on every request.
 */
export type CsrfKeys = readonly [CsrfSigner, ...CsrfSigner[]];

/** The base64url HMAC-SHA-256 of a message under one secret. */
type CsrfSigner = (message: Uint8Array) => string;

// 16 bytes are 22 base64url characters and 32 bytes are 43; the last character of each carries
// padding bits that must be zero, so only the canonical spelling of a token is accepted.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{21}[AQgw]\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
const NONCE_LENGTH = 22;
const NONCE_BYTES = 16;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks a {@link CsrfSecret} and copies it, so later changes to the caller's buffers do not
 * change the keys. Throws {@link ConfigurationError} for an empty secret or an empty list.
 */
export function csrfKeys(secret: CsrfSecret): CsrfKeys {
  const list: readonly unknown[] = isSecretList(secret) ? secret : [secret];
  const keys = list.map((entry, index) => {
    if (typeof entry === 'string' && entry !== '') return signer(utf8(entry));
    if (entry instanceof Uint8Array && entry.length > 0) return signer(entry);
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
  const nonce = toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  return `${nonce}.${keys[0](message(nonce, binding))}`;
}

/** {@link verifyCsrfToken} over keys already checked by {@link csrfKeys}. */
export function verifyWithKeys(keys: CsrfKeys, token: unknown, binding: unknown): boolean {
  if (typeof token !== 'string' || typeof binding !== 'string') return false;
  if (!TOKEN_SHAPE.test(token) || LONE_SURROGATE.test(binding)) return false;
  const nonce = token.slice(0, NONCE_LENGTH);
  const presented = token.slice(NONCE_LENGTH + 1);
  const signed = message(nonce, binding);
  // Every key is tried, so the time taken does not say which one (if any) matched.
  let valid = false;
  for (const key of keys) {
    if (timingSafeEqual(presented, key(signed))) valid = true;
  }
  return valid;
}

function signer(key: Uint8Array): CsrfSigner {
  // Keyed once; each message is signed on a copy of that state.
  const keyed = hmac.create(sha256, key);
  return (message) => toBase64url(keyed.clone().update(message).digest());
}

/** What a token's MAC signs: the UTF-8 bytes of its nonce and binding, under a fixed label. */
function message(nonce: string, binding: string): Uint8Array {
  return utf8(`vouch-csrf.${nonce}.${binding}`);
}
