import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt's cost parameters. */
export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  /** Block size. */
  readonly r: number;
  /** Parallelisation. */
  readonly p: number;
}

/**
 * Scrypt parameters from OWASP's Password Storage Cheat Sheet: N=2^16, r=8, p=2, which it lists
 * as equal in strength to N=2^17, p=1 for half the memory (64 MiB a hash, 0.1 to 0.7 s of a core).
 * Memory is what a flood of sign-ins exhausts first. Pass cheaper ones only in tests.
 */
export const OWASP_SCRYPT: ScryptParameters = { N: 2 ** 16, r: 8, p: 2 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;
// Refuse parameters that would need more than 256 MiB per hash: a corrupted or hostile stored
// hash must not be able to exhaust memory.
const MAX_MEMORY = 256 * 1024 * 1024;

/**
 * Hashes a password with scrypt and a random salt into a self-describing string,
 * `scrypt$N$r$p$salt$hash` (salt and hash in base64url), so parameters can be raised later
 * without breaking stored hashes. The password is NFC-normalised first.
 *
 * @example await hashPassword('correct horse battery staple')
 */
export async function hashPassword(
  password: string,
  parameters: ScryptParameters = OWASP_SCRYPT,
): Promise<string> {
  checkParameters(parameters);
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, parameters);
  const { N, r, p } = parameters;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/**
 * Whether a password matches a hash made by {@link hashPassword}, compared in constant time.
 * Throws a `TypeError` for a malformed hash: a broken record is an error, not a wrong password.
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const { parameters, salt, hash } = decode(encoded);
  const candidate = await derive(password, salt, hash.length, parameters);
  return timingSafeEqual(candidate, hash);
}

/**
 * A hash in the format of {@link hashPassword} that no password matches (its stored half is all
 * zeros, which finding a preimage for is infeasible), costing exactly what a real one does.
 */
export function dummyHash(parameters: ScryptParameters = OWASP_SCRYPT): string {
  checkParameters(parameters);
  const zeros = Buffer.alloc(HASH_BYTES).toString('base64url');
  const salt = Buffer.alloc(SALT_BYTES, 0x5a).toString('base64url');
  return `scrypt$${parameters.N}$${parameters.r}$${parameters.p}$${salt}$${zeros}`;
}

function derive(
  password: string,
  salt: Buffer,
  length: number,
  { N, r, p }: ScryptParameters,
): Promise<Buffer> {
  // The same characters typed on different systems may arrive composed or decomposed.
  const input = password.normalize('NFC');
  // OpenSSL needs 128·r·(N + p + 2) bytes; Node's default ceiling (32 MiB) is below OWASP's cost.
  const maxmem = 128 * r * (N + p + 2);
  return new Promise((resolve, reject) => {
    scrypt(input, salt, length, { N, r, p, maxmem }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

function decode(encoded: string): { parameters: ScryptParameters; salt: Buffer; hash: Buffer } {
  const parts = encoded.split('$');
  const [scheme, n, r, p, salt, hash] = parts;
  if (
    parts.length !== 6 ||
    scheme !== 'scrypt' ||
    n === undefined ||
    r === undefined ||
    p === undefined ||
    salt === undefined ||
    hash === undefined ||
    ![n, r, p].every((part) => /^[1-9][0-9]{0,9}$/.test(part)) ||
    ![salt, hash].every((part) => /^[A-Za-z0-9_-]+$/.test(part))
  ) {
    throw new TypeError('malformed password hash');
  }
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  checkParameters(parameters);
  const saltBytes = Buffer.from(salt, 'base64url');
  const hashBytes = Buffer.from(hash, 'base64url');
  if (saltBytes.length < 8 || hashBytes.length < 16 || hashBytes.length > 64) {
    throw new TypeError('malformed password hash');
  }
  return { parameters, salt: saltBytes, hash: hashBytes };
}

function checkParameters({ N, r, p }: ScryptParameters): void {
  const valid =
    Number.isInteger(N) &&
    N >= 2 &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= 16 &&
    128 * r * (N + p + 2) <= MAX_MEMORY;
  if (!valid) throw new TypeError(`unusable scrypt parameters N=${N} r=${r} p=${p}`);
}
