import { dummyHash, verifyPassword, type ScryptParameters } from '../security/passwords.js';
import type { Store, UserRecord } from '../store/store.js';

/** Options of {@link checkLogin}. */
export interface CheckLoginOptions {
  /** The parameters users' hashes are made with, so an unknown user costs the same (default OWASP's). */
  readonly parameters?: ScryptParameters;
}

/** A password found right: its user, and the hash it was checked against. */
export interface CheckedLogin {
  readonly user: UserRecord;
  /** What a session started from this check is bound to (see `Store.createSession`). */
  readonly passwordHash: string;
}

/**
 * The user these credentials belong to, with the hash the password matched, or `undefined` for an
 * unknown user, a wrong password or a locked user. An unknown user still runs scrypt (against
 * {@link dummyHash}), and a locked one its own, so the failures take the same time and cannot be
 * told apart.
 *
 * @example const checked = await checkLogin(store, username, password);
 */
export async function checkLogin(
  store: Pick<Store, 'findUserCredentials'>,
  username: string,
  password: string,
  options: CheckLoginOptions = {},
): Promise<CheckedLogin | undefined> {
  const found = await store.findUserCredentials(username);
  if (found === undefined) {
    await verifyPassword(password, dummyHash(options.parameters));
    return undefined;
  }
  const right = await verifyPassword(password, found.passwordHash);
  if (!right || found.lockedAt !== null) return undefined;
  const user = { id: found.id, username: found.username, createdAt: found.createdAt };
  return { user, passwordHash: found.passwordHash };
}
