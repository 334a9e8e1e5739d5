import { digest } from '../security/secrets.js';
import { type CliContext } from './cli-context.js';
import { promptSecret } from './prompt-secret.js';
import { readSecret } from './read-secret.js';
import { whenUnknownUser } from './user-commands.js';
import { CliError, NotFoundError } from '../errors.js';

/**
 * One base64url word, as a token from `POST /api/token` is: anything else on standard input (a
 * `Bearer ` prefix, two words, nothing) is no token at all; a word that is no token is unknown.
 */
const TOKEN = /^[A-Za-z0-9_-]{1,512}$/;

/**
 * `token revoke`: the Bearer token read from standard input (typed without echo on a terminal)
 * stops working at once. The token itself is never printed nor stored: it is looked up by its
 * digest. Revoking a token already revoked succeeds (exit 0): the state asked for holds. An
 * unknown token is an error.
 */
export async function revokeToken(context: CliContext): Promise<void> {
  const { stdin, stderr } = context.io;
  const typed =
    stdin.isTTY === true ? await promptSecret(stdin, stderr, 'Token:') : await readSecret(stdin);
  const token = typed?.trim();
  if (token === undefined || !TOKEN.test(token)) {
    throw new CliError('standard input holds no token (the access_token of POST /api/token)');
  }
  await context.withStore(async (store) => {
    const revoked = await store
      .revokeToken(digest(token), context.now())
      .catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new CliError('no such token');
        throw error;
      });
    context.io.stdout.write(revoked ? 'token revoked\n' : 'token was already revoked\n');
  });
}

/**
 * `token revoke --user <username>`: every token of the user stops working at once, on every
 * instance, revoked in one transaction; says how many still worked. Tokens issued afterwards work
 * (after a stolen password, `user passwd` comes first). An unknown user is an error.
 */
export async function revokeUserTokens(context: CliContext, username: string): Promise<void> {
  const revoked = await context.withStore((store) =>
    store.revokeUserTokens(username, context.now()).catch(whenUnknownUser(username)),
  );
  const tokens = revoked === 1 ? '1 token' : `${revoked} tokens`;
  context.io.stdout.write(`${tokens} of user ${username} revoked\n`);
}
