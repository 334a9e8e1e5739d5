import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigurationError, StoreUnavailableError } from 'vouch';
import { CliError, type CliContext, type CliIo } from './cli/cli-context.js';
import { addKey, listKeys, revokeKey } from './cli/key-commands.js';
import { revokeToken } from './cli/token-commands.js';
import { addUser, listUsers } from './cli/user-commands.js';
import type { ScryptParameters } from './security/passwords.js';
import { DEFAULT_DATABASE_URL, openStore } from './store/open-store.js';
import { UsernameTakenError } from './store/store.js';

export type { CliIo } from './cli/cli-context.js';

/** Options of {@link runCli}, for tests. */
export interface CliOptions {
  /** scrypt cost for new users (default OWASP's). */
  readonly scrypt?: ScryptParameters;
  /** The clock (default `Date.now`). */
  readonly now?: () => number;
}

/** What `--help` prints. */
export const USAGE = `Usage: npm run -s cli -- <command>

Commands:
  user add <username>          add a user; the password is read from standard input
  user list                    list users: id, username, creation time
  key add <application-name>   create an application's API key, printed once on the last line
  key list                     list keys: id, prefix, application, active or revoked
  key revoke <id>              revoke a key at once (revoking it again is not an error)
  token revoke                 revoke the Bearer token read from standard input, at once

Environment:
  DATABASE_URL   where the data lives (default ${DEFAULT_DATABASE_URL})

Exit status: 0 done, 1 refused (bad input, duplicate, unknown id or token, database unavailable),
2 not a command.
`;

/**
 * Runs one CLI command and resolves to its exit status. The store is opened only once the input
 * is valid, each change is a single transaction, and the store is always closed.
 *
 * @example process.exitCode = await runCli(process.argv.slice(2), { stdin, stdout, stderr, env });
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  const [group, action, ...rest] = argv;
  if (group === '--help' || group === '-h' || group === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  const context: CliContext = {
    io,
    now: options.now ?? Date.now,
    async withStore(use) {
      const url = io.env.DATABASE_URL;
      // One command, one process: nothing to gain from keeping credentials in memory.
      const store = await openStore(url === undefined || url === '' ? DEFAULT_DATABASE_URL : url, {
        credentialCache: false,
      });
      try {
        return await use(store);
      } finally {
        await store.close();
      }
    },
  };
  const command = `${group ?? ''} ${action ?? ''}`;
  const [argument] = rest;
  try {
    if (rest.length === 0 && command === 'user list') await listUsers(context);
    else if (rest.length === 0 && command === 'key list') await listKeys(context);
    else if (rest.length === 0 && command === 'token revoke') await revokeToken(context);
    else if (rest.length === 1 && argument !== undefined) {
      if (command === 'user add') await addUser(context, argument, options.scrypt);
      else if (command === 'key add') await addKey(context, argument);
      else if (command === 'key revoke') await revokeKey(context, argument);
      else return usageError(io, argv);
    } else return usageError(io, argv);
    return 0;
  } catch (error) {
    io.stderr.write(`error: ${describe(error)}\n`);
    return 1;
  }
}

function usageError(io: CliIo, argv: readonly string[]): number {
  const given = argv.length === 0 ? 'no command given' : `not a command: ${argv.join(' ')}`;
  io.stderr.write(`${given}\n\n${USAGE}`);
  return 2;
}

function describe(error: unknown): string {
  if (
    error instanceof CliError ||
    error instanceof UsernameTakenError ||
    error instanceof ConfigurationError
  ) {
    return error.message;
  }
  if (error instanceof StoreUnavailableError) {
    return `${error.message}; nothing was changed, try again`;
  }
  return error instanceof Error ? error.message : String(error);
}

function isMain(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  process.exitCode = await runCli(process.argv.slice(2), {
    // A getter: touching process.stdin opens it, which only `user add` and `token revoke` need.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
}
