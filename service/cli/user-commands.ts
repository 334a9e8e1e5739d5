import { hashPassword, type ScryptParameters } from '../security/passwords.js';
import { passwordProblem, usernameProblem } from '../security/credential-rules.js';
import { type Store } from '../store/store.js';
import { type CliContext } from './cli-context.js';
import { promptSecret } from './prompt-secret.js';
import { readSecret } from './read-secret.js';
import { CliError, NotFoundError, UsernameTakenError } from '../errors.js';

/**
 * `user add <username>`: the password comes from standard input, typed twice without echo on a
 * terminal. Everything is checked before the database is opened, and the user is written in one
 * statement, so bad input writes nothing.
 */
export async function addUser(
  context: CliContext,
  username: string,
  scrypt?: ScryptParameters,
): Promise<void> {
  const badName = usernameProblem(username);
  if (badName !== undefined) throw new CliError(`${badName}: ${JSON.stringify(username)}`);
  const password = await newPassword(context);
  await context.withStore(async (store) => {
    // Fail fast before paying for scrypt; the insert below still catches a racing duplicate.
    if ((await store.findUserCredentials(username)) !== undefined) {
      throw new UsernameTakenError(username);
    }
    const hash = await hashPassword(password, scrypt);
    const user = await store.createUser(username, hash, context.now());
    context.io.stdout.write(`user ${user.username} added (id ${user.id})\n`);
  });
}

/**
 * `user passwd <username>`: a new password, read as `user add` reads one. The old password stops
 * working and the user's sessions (each a proof of it) end at once, on every instance; the
 * user's tokens are kept (separate credentials: `token revoke --user` revokes them).
 */
export async function setPassword(
  context: CliContext,
  username: string,
  scrypt?: ScryptParameters,
): Promise<void> {
  const password = await newPassword(context);
  const ended = await context.withStore(async (store) => {
    // Fail fast before paying for scrypt; the update below still catches a racing removal.
    if ((await store.findUserCredentials(username)) === undefined) throw unknownUser(username);
    const hash = await hashPassword(password, scrypt);
    return store.setUserPassword(username, hash).catch(whenUnknownUser(username));
  });
  const sessions = ended === 1 ? '1 session' : `${ended} sessions`;
  context.io.stdout.write(`password of user ${username} changed; ${sessions} ended, tokens kept\n`);
}

/** `user remove <username>`: the user is deleted at once, with its tokens, sessions and grants. */
export async function removeUser(context: CliContext, username: string): Promise<void> {
  await context.withStore((store) => store.removeUser(username).catch(whenUnknownUser(username)));
  context.io.stdout.write(`user ${username} removed, with its tokens, sessions and grants\n`);
}

/**
 * `user lock <username>`: the user's password, tokens and sessions are refused at once, until
 * `user unlock`. Locking a locked user succeeds: the state asked for holds.
 */
export async function lockUser(context: CliContext, username: string): Promise<void> {
  const locked = await context.withStore((store) =>
    store.lockUser(username, context.now()).catch(whenUnknownUser(username)),
  );
  context.io.stdout.write(
    locked
      ? `user ${username} locked: its password, tokens and sessions are refused\n`
      : `user ${username} was already locked\n`,
  );
}

/** `user unlock <username>`: the user's password works again, and its unexpired tokens and sessions. */
export async function unlockUser(context: CliContext, username: string): Promise<void> {
  const unlocked = await context.withStore((store) =>
    store.unlockUser(username).catch(whenUnknownUser(username)),
  );
  context.io.stdout.write(
    unlocked ? `user ${username} unlocked\n` : `user ${username} was not locked\n`,
  );
}

function unknownUser(username: string): CliError {
  return new CliError(`no user is named ${JSON.stringify(username)} (see user list)`);
}

/** Rethrows an error, as a {@link CliError} naming the user when the store found no such user. */
export function whenUnknownUser(username: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof NotFoundError) throw unknownUser(username);
    throw error;
  };
}

/**
 * A new password from standard input (typed twice without echo on a terminal), checked before
 * anything is opened.
 */
async function newPassword(context: CliContext): Promise<string> {
  const password =
    context.io.stdin.isTTY === true
      ? await typedPassword(context)
      : await readSecret(context.io.stdin);
  if (password === undefined) throw new CliError('the password is too long');
  const badPassword = passwordProblem(password);
  if (badPassword !== undefined) {
    throw new CliError(`${badPassword} (it is read from standard input)`);
  }
  return password;
}

/** A password typed on a terminal, twice, never shown: a typing mistake cannot be seen. */
async function typedPassword(context: CliContext): Promise<string> {
  const { stdin, stderr } = context.io;
  const password = await promptSecret(stdin, stderr, 'Password:');
  if ((await promptSecret(stdin, stderr, 'Password again:')) !== password) {
    throw new CliError('the two passwords differ; nothing was written');
  }
  return password;
}

/** `user list`: one line per user, `id<TAB>username<TAB>created<TAB>active` or `locked <when>`. */
export async function listUsers(context: CliContext): Promise<void> {
  const users = await context.withStore((store: Store) => store.listUsers());
  for (const user of users) {
    const state = user.lockedAt === null ? 'active' : `locked ${iso(user.lockedAt)}`;
    context.io.stdout.write(`${user.id}\t${user.username}\t${iso(user.createdAt)}\t${state}\n`);
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
