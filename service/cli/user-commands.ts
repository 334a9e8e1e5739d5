import { hashPassword, type ScryptParameters } from '../security/passwords.js';
import { passwordProblem, usernameProblem } from '../security/credential-rules.js';
import { type Store } from '../store/store.js';
import { type CliContext } from './cli-context.js';
import { promptSecret } from './prompt-secret.js';
import { readSecret } from './read-secret.js';
import { CliError, UsernameTakenError } from '../errors.js';

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
  const password =
    context.io.stdin.isTTY === true
      ? await typedPassword(context)
      : await readSecret(context.io.stdin);
  if (password === undefined) throw new CliError('the password is too long');
  const badPassword = passwordProblem(password);
  if (badPassword !== undefined) {
    throw new CliError(`${badPassword} (it is read from standard input)`);
  }
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

/** A password typed on a terminal, twice, never shown: a typing mistake cannot be seen. */
async function typedPassword(context: CliContext): Promise<string> {
  const { stdin, stderr } = context.io;
  const password = await promptSecret(stdin, stderr, 'Password:');
  if ((await promptSecret(stdin, stderr, 'Password again:')) !== password) {
    throw new CliError('the two passwords differ; nothing was written');
  }
  return password;
}

/** `user list`: one line per user, `id<TAB>username<TAB>created`. */
export async function listUsers(context: CliContext): Promise<void> {
  const users = await context.withStore((store: Store) => store.listUsers());
  for (const user of users) {
    context.io.stdout.write(`${user.id}\t${user.username}\t${iso(user.createdAt)}\n`);
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
