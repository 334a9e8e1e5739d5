import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StoreUnavailableError } from 'vouch';
import type { CliContext, CliIo } from './cli-context.js';
import { addKey, listKeys, revokeKey } from './key-commands.js';
import { revokeToken, revokeUserTokens } from './token-commands.js';
import {
  grantKeyScope,
  grantUserScope,
  revokeKeyScope,
  revokeUserScope,
} from './scope-commands.js';
import {
  addUser,
  listUsers,
  lockUser,
  removeUser,
  setPassword,
  unlockUser,
} from './user-commands.js';
import type { ScryptParameters } from '../security/passwords.js';
import { connectRedis } from '../config/backing-services.js';
import { redisKeyPrefix, redisUrl as checkedRedisUrl } from '../config/config.js';
import { DEFAULT_DATABASE_URL, openStore } from '../store/open-store.js';

export type { CliIo } from './cli-context.js';

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
  user add <username>                   add a user; the password is read from standard input
  user list                             list users: id, username, creation time, active or
                                        locked (since when)
  user grant <username> <scope>         grant a scope to a user, for the tokens issued from now on
  user revoke-scope <username> <scope>  withdraw a scope from a user and its tokens, at once and
                                        for good (granted again, it is for later tokens only)
  user passwd <username>                change a user's password, read from standard input; the
                                        old one stops working and the user's sessions end, at
                                        once (its tokens are kept: token revoke --user)
  user lock <username>                  refuse a user's password, tokens and sessions, at once
  user unlock <username>                let a locked user back in
  user remove <username>                delete a user with its tokens, sessions and grants
  key add <application-name>            create an application's key, printed once on the last line
  key list                              list keys: id, prefix, application, active or revoked
  key revoke <id>                       revoke a key at once (revoking it again is not an error)
  key grant <id> <scope>                grant a scope to a key
  key revoke-scope <id> <scope>         withdraw a scope from a key, at once
  token revoke                          revoke the Bearer token read from standard input, at once
  token revoke --user <username>        revoke every token of a user, at once; those issued later
                                        work (after a stolen password, user passwd first)

Environment:
  DATABASE_URL      where the data lives (default ${DEFAULT_DATABASE_URL}); the service's first
                    start creates it, a command refuses a database that does not exist
  REDIS_URL         the Redis the service's instances share, if any: revocations reach them through it
  REDIS_KEY_PREFIX  the instances' REDIS_KEY_PREFIX, if they set one (default vouch:)

A scope is 1 to 64 printable ASCII characters without space, " or \\ (RFC 6749), as admin.

Exit status: 0 done, 1 refused (bad input, duplicate, unknown user, id or token, no such database,
database unavailable), 2 not a command, or not its arguments.
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
  const group = argv[0];
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
      const redis =
        redisUrl === undefined
          ? undefined
          : await connectRedis(redisUrl, redisKeyPrefix(io.env.REDIS_KEY_PREFIX));
      try {
        // One command, one process: nothing to gain from keeping credentials in memory. A command
        // works on the service's data: a mistyped path is refused, never created.
        const store = await openStore(
          url === undefined || url === '' ? DEFAULT_DATABASE_URL : url,
          { credentialCache: false, redis, create: false },
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
  const { command, args } = commandOf(argv);
  const known = COMMANDS.get(command);
  if (known === undefined) return usageError(io, unknownCommand(argv));
  const problem = arityProblem(command, known, args.length);
  if (problem !== undefined) return usageError(io, problem);
  try {
    await known.run(context, args, options);
    return 0;
  } catch (error) {
    io.stderr.write(`error: ${describe(error)}\n`);
    return 1;
  }
}

/** A command: what it does with its arguments, if it takes any. */
interface Command {
  /** Its arguments as the usage names them, with their articles (`a <username>`), if any. */
  readonly arguments?: readonly string[];
  /** Said when it is given an argument although it takes none. */
  readonly note?: string;
  /** Runs it with as many arguments as it takes. */
  run(context: CliContext, args: readonly string[], options: CliOptions): Promise<void>;
}

/** The `index`th argument, which the arity check has made sure is there. */
function nth(args: readonly string[], index: number): string {
  return args[index] ?? '';
}

const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  [
    'user add',
    {
      arguments: ['a <username>'],
      run: (context, args, options) => addUser(context, nth(args, 0), options.scrypt),
    },
  ],
  ['user list', { run: (context) => listUsers(context) }],
  [
    'user grant',
    {
      arguments: ['a <username>', 'a <scope>'],
      run: (context, args) => grantUserScope(context, nth(args, 0), nth(args, 1)),
    },
  ],
  [
    'user revoke-scope',
    {
      arguments: ['a <username>', 'a <scope>'],
      run: (context, args) => revokeUserScope(context, nth(args, 0), nth(args, 1)),
    },
  ],
  [
    'user passwd',
    {
      arguments: ['a <username>'],
      run: (context, args, options) => setPassword(context, nth(args, 0), options.scrypt),
    },
  ],
  [
    'user lock',
    { arguments: ['a <username>'], run: (context, args) => lockUser(context, nth(args, 0)) },
  ],
  [
    'user unlock',
    { arguments: ['a <username>'], run: (context, args) => unlockUser(context, nth(args, 0)) },
  ],
  [
    'user remove',
    { arguments: ['a <username>'], run: (context, args) => removeUser(context, nth(args, 0)) },
  ],
  [
    'key add',
    { arguments: ['an <application-name>'], run: (context, args) => addKey(context, nth(args, 0)) },
  ],
  ['key list', { run: (context) => listKeys(context) }],
  [
    'key revoke',
    { arguments: ['an <id>'], run: (context, args) => revokeKey(context, nth(args, 0)) },
  ],
  [
    'key grant',
    {
      arguments: ['an <id>', 'a <scope>'],
      run: (context, args) => grantKeyScope(context, nth(args, 0), nth(args, 1)),
    },
  ],
  [
    'key revoke-scope',
    {
      arguments: ['an <id>', 'a <scope>'],
      run: (context, args) => revokeKeyScope(context, nth(args, 0), nth(args, 1)),
    },
  ],
  [
    'token revoke',
    {
      note: ' (the token is read from standard input), or --user <username>',
      run: (context) => revokeToken(context),
    },
  ],
  [
    'token revoke --user',
    {
      arguments: ['a <username>'],
      run: (context, args) => revokeUserTokens(context, nth(args, 0)),
    },
  ],
]);

/**
 * The command `argv` names and its arguments. An option right after the group and action names a
 * command of its own where there is one (`token revoke --user`); elsewhere it is an argument.
 */
function commandOf(argv: readonly string[]): { command: string; args: readonly string[] } {
  const [group = '', action = '', ...args] = argv;
  const command = `${group} ${action}`;
  const [option, ...more] = args;
  if (option?.startsWith('--') === true && COMMANDS.has(`${command} ${option}`)) {
    return { command: `${command} ${option}`, args: more };
  }
  return { command, args };
}

function unknownCommand(argv: readonly string[]): string {
  return argv.length === 0 ? 'no command given' : `not a command: ${argv.join(' ')}`;
}

/** What is wrong with the number of arguments given to a known command, if anything. */
function arityProblem(name: string, command: Command, given: number): string | undefined {
  const wanted = command.arguments ?? [];
  if (given === wanted.length) return undefined;
  if (wanted.length === 0) return `${name} takes no argument, got ${given}${command.note ?? ''}`;
  if (given < wanted.length) return `${name} needs ${wanted.slice(given).join(' and ')}`;
  const bare = wanted.map((argument) => argument.replace(/^an? /, ''));
  const takes = bare.length === 1 ? `one ${bare.join('')}` : bare.join(' and ');
  return `${name} takes ${takes}, got ${given} arguments`;
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
    // A getter: touching process.stdin opens it, which only the commands reading a secret need.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
}
