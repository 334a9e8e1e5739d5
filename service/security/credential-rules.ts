/** Usernames: letters, digits and `_ . @ -`, 1 to 64 characters, so they are safe in logs and listings. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{1,64}$/;

/** The shortest password accepted for a new user (NIST SP 800-63B's minimum). */
export const MIN_PASSWORD_LENGTH = 8;

/** The longest password accepted, in characters: enough for any passphrase, short of a denial of service. */
export const MAX_PASSWORD_LENGTH = 1024;

// Control and format characters (tabs, newlines, bidi overrides, zero-width), lone surrogates,
// unassigned code points, and line/paragraph separators: anything that would garble a listing.
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/** Why a username cannot be used for a new user, or `undefined` when it can. */
export function usernameProblem(username: string): string | undefined {
  if (USERNAME_PATTERN.test(username)) return undefined;
  return 'a username is 1 to 64 characters among letters, digits and _ . @ -';
}

/** Why a password cannot be used for a new user, or `undefined` when it can. */
export function passwordProblem(password: string): string | undefined {
  const length = Array.from(password).length;
  if (length === 0) return 'the password is empty';
  if (length < MIN_PASSWORD_LENGTH) {
    return `the password is shorter than ${MIN_PASSWORD_LENGTH} characters`;
  }
  if (length > MAX_PASSWORD_LENGTH) {
    return `the password is longer than ${MAX_PASSWORD_LENGTH} characters`;
  }
  return undefined;
}

/** Why an application name cannot be used, or `undefined` when it can: 1 to 100 printable characters. */
export function applicationNameProblem(name: string): string | undefined {
  const length = Array.from(name).length;
  if (length === 0 || length > 100) return 'an application name is 1 to 100 characters';
  if (UNPRINTABLE.test(name)) return 'an application name holds printable characters only';
  if (name.trim() !== name) return 'an application name does not start or end with spaces';
  return undefined;
}
