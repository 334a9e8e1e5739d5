import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StoreUnavailableError } from 'vouch';
import type { CliContext, CliIo } from './cli/cli-context.js';
import { addKey, listKeys, revokeKey } from './cli/key-commands.js';
import { revokeToken } from './cli/token-commands.js';
import { addUser, listUsers } from './cli/user-commands.js';
import type { ScryptParameters } from './security/passwords.js';
import { connectRedis } from './config/backing-services.js';
import { redisUrl as checkedRedisUrl } from './config/config.js';
import { DEFAULT_DATABASE_URL, openStore } from './store/open-store.js';

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
  REDIS_URL      the Redis the service's instances share, if any: revocations reach them through it

Exit status: 0 done, 1 refused (bad input, duplicate, unknown id or token, database unavailable),
2 not a command, or not its arguments.
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
      // What is revoked here reaches the service's instances over Redis when they share one.
      const redisUrl = checkedRedisUrl(io.env.REDIS_URL);
      const redis = redisUrl === undefined ? undefined : await connectRedis(redisUrl);
      try {
        // One command, one process: nothing to gain from keeping credentials in memory.
        const store = await openStore(
          url === undefined || url === '' ? DEFAULT_DATABASE_URL : url,
          { credentialCache: false, redis },
        );
        try {
          return await use(store);
        } finally {
          await store.close();
        }
      } finally {
        await redis?.close();
      }
    },
  };
  const command = `${group ?? ''} ${action ?? ''}`;
  const known = COMMANDS.get(command);
  if (known === undefined) return usageError(io, unknownCommand(argv));
  const problem = arityProblem(command, known, rest.length);
  if (problem !== undefined) return usageError(io, problem);
  try {
    await known.run(context, rest[0] ?? '', options);
    return 0;
  } catch (error) {
    io.stderr.write(`error: ${describe(error)}\n`);
    return 1;
  }
}

/** A command: what it does with its one argument, if it takes one. */
interface Command {
  /** Its argument as the usage names it, with its article (`a <username>`), if it takes one. */
  readonly argument?: string;
  /** Said when it is given an argument although it takes none. */
  readonly note?: string;
  run(context: CliContext, argument: string, options: CliOptions): Promise<void>;
}

const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  [
    'user add',
    {
      argument: 'a <username>',
      run: (context, name, options) => addUser(context, name, options.scrypt),
    },
  ],
  ['user list', { run: (context) => listUsers(context) }],
  ['key add', { argument: 'an <application-name>', run: (context, name) => addKey(context, name) }],
  ['key list', { run: (context) => listKeys(context) }],
  ['key revoke', { argument: 'an <id>', run: (context, id) => revokeKey(context, id) }],
  [
    'token revoke',
    {
      note: ' (the token is read from standard input)',
      run: (context) => revokeToken(context),
    },
  ],
]);

function unknownCommand(argv: readonly string[]): string {
  return argv.length === 0 ? 'no command given' : `not a command: ${argv.join(' ')}`;
}

/** What is wrong with the number of arguments given to a known command, if anything. */
function arityProblem(name: string, command: Command, given: number): string | undefined {
  const { argument } = command;
  if (argument === undefined) {
    return given === 0 ? undefined : `${name} takes no argument, got ${given}${command.note ?? ''}`;
  }
  if (given === 1) return undefined;
  if (given === 0) return `${name} needs ${argument}`;
  return `${name} takes one ${argument.replace(/^an? /, '')}, got ${given} arguments`;
}

function usageError(io: CliIo, message: string): number {
  io.stderr.write(`${message}\n\n${USAGE}`);
  return 2;
}

function describe(error: unknown): string {
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
