import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli, USAGE, type CliOptions } from './run-cli.js';
import { verifyPassword } from '../security/passwords.js';
import { digest, newSecret } from '../security/secrets.js';
import { openStore } from '../store/open-store.js';
import { openSqliteStore } from '../store/sqlite/open-sqlite-store.js';

const FAST: CliOptions = { scrypt: { N: 2 ** 10, r: 8, p: 1 } };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where a database would be, in a folder of its own: nothing is there yet. */
function tempDatabase(t: TestContext): { dir: string; file: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-cli-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'data', 'vouch.db');
  return { dir, file, env: { DATABASE_URL: `sqlite:${file}` } };
}

/** As {@link tempDatabase}, with the database created as the service's first start creates it. */
async function newDatabase(t: TestContext): Promise<{ file: string; env: Record<string, string> }> {
  const { file, env } = tempDatabase(t);
  await (await openStore(env.DATABASE_URL!, { credentialCache: false })).close();
  return { file, env };
}

/** Every file under `dir`, with its contents: what a refused command must leave as it was. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    files.set(path, entry.isFile() ? readFileSync(path).toString('base64') : 'folder');
  }
  return files;
}

/** Runs the CLI in process, with strings for streams. */
async function run(
  argv: string[],
  env: Record<string, string>,
  input = '',
  options: CliOptions = FAST,
): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    argv,
    {
      stdin: Readable.from([Buffer.from(input)]),
      stdout: { write: (text: string) => (stdout += text) },
      stderr: new Writable({
        write(chunk: Buffer, _encoding, done) {
          stderr += chunk.toString('utf8');
          done();
        },
      }),
      env,
    },
    options,
  );
  return { code, stdout, stderr };
}

/** Runs the real thing: a Node process on service/cli/run-cli.ts from the repository root. */
function spawnCli(argv: string[], env: Record<string, string>, input = ''): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'service/cli/run-cli.ts', ...argv], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** What a terminal showed while a command ran on it, and how the command exited. */
interface TerminalOutcome {
  /** `null` when it had not exited after 20 s and was killed. */
  readonly code: number | null;
  /** Everything the terminal showed: what the command wrote and whatever echoed what was typed. */
  readonly screen: string;
}

/**
 * Runs the real CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal would:
 * each of `typing` is typed once the terminal shows its prompt (Enter is `\r`).
 */
function onTerminal(
  argv: string[],
  env: Record<string, string>,
  typing: [prompt: string, keys: string][],
): Promise<TerminalOutcome> {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, '--import', 'tsx', 'service/cli/run-cli.ts', ...argv]
    .map(quote)
    .join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let screen = '';
    let shown = 0;
    const next = [...typing];
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      screen += text;
      const [prompt, keys] = next[0] ?? [];
      const at = prompt === undefined ? -1 : screen.indexOf(prompt, shown);
      if (at === -1 || keys === undefined) return;
      shown = at + prompt!.length;
      next.shift();
      child.stdin.write(keys);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

test('--help prints the usage on standard output; no command is a usage error', async (t) => {
  const { env } = tempDatabase(t);
  for (const flag of ['--help', '-h', 'help']) {
    assert.deepEqual(await run([flag], env), { code: 0, stdout: USAGE, stderr: '' });
  }
  const none = await run([], env);
  assert.equal(none.code, 2);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /^no command given\n\nUsage:/);
});

test('an unknown command or a wrong number of arguments exits 2 with the usage', async (t) => {
  const { env, file } = tempDatabase(t);
  const cases: [string[], string][] = [
    [['frobnicate'], 'not a command: frobnicate'],
    [['user'], 'not a command: user'],
    [['user', 'delete', 'alice'], 'not a command: user delete alice'],
    [['token'], 'not a command: token'],
    // A command, with its arguments wrong: say what it needs.
    [['user', 'add'], 'user add needs a <username>'],
    [['user', 'add', 'alice', 'extra'], 'user add takes one <username>, got 2 arguments'],
    [['user', 'list', 'extra'], 'user list takes no argument, got 1'],
    [['user', 'passwd'], 'user passwd needs a <username>'],
    [['user', 'lock', 'alice', 'bob'], 'user lock takes one <username>, got 2 arguments'],
    [['user', 'remove'], 'user remove needs a <username>'],
    [['key', 'add'], 'key add needs an <application-name>'],
    [['key', 'add', 'two', 'words'], 'key add takes one <application-name>, got 2 arguments'],
    [['key', 'revoke'], 'key revoke needs an <id>'],
    [['user', 'grant'], 'user grant needs a <username> and a <scope>'],
    [['user', 'grant', 'alice'], 'user grant needs a <scope>'],
    [
      ['user', 'revoke-scope', 'alice', 'a', 'b'],
      'user revoke-scope takes <username> and <scope>, got 3 arguments',
    ],
    [['key', 'grant', '1'], 'key grant needs a <scope>'],
    [['key', 'revoke-scope'], 'key revoke-scope needs an <id> and a <scope>'],
    [
      ['token', 'revoke', 'abc'],
      'token revoke takes no argument, got 1 (the token is read from standard input), or --user <username>',
    ],
    [
      ['token', 'revoke', '--users', 'alice'],
      'token revoke takes no argument, got 2 (the token is read from standard input), or --user <username>',
    ],
    [['token', 'revoke', '--user'], 'token revoke --user needs a <username>'],
    [
      ['token', 'revoke', '--user', 'alice', 'bob'],
      'token revoke --user takes one <username>, got 2 arguments',
    ],
  ];
  for (const [argv, message] of cases) {
    const outcome = await run(argv, env, 'password123\n');
    assert.equal(outcome.code, 2, argv.join(' '));
    assert.equal(outcome.stdout, '');
    assert.equal(outcome.stderr.split('\n')[0], message);
    assert.match(outcome.stderr, /\n\nUsage:/);
  }
  assert.equal(existsSync(file), false, 'nothing was written, not even the database');
});

test('user add: the password is all of standard input less one line break', async (t) => {
  const { env, file } = await newDatabase(t);
  assert.deepEqual(await run(['user', 'add', 'alice'], env, 'wonderland\n'), {
    code: 0,
    stdout: 'user alice added (id 1)\n',
    stderr: '',
  });
  assert.equal((await run(['user', 'add', 'bob'], env, 'two lines\n\n')).code, 0);
  assert.equal((await run(['user', 'add', 'carol'], env, 'crlf-ending\r\n')).code, 0);
  assert.equal((await run(['user', 'add', 'dave'], env, '  spaces  ')).code, 0);

  const store = openSqliteStore(file);
  t.after(() => store.close());
  const hash = async (name: string) => (await store.findUserCredentials(name))!.passwordHash;
  assert.ok(await verifyPassword('wonderland', await hash('alice')));
  assert.ok(await verifyPassword('two lines\n', await hash('bob')));
  assert.ok(await verifyPassword('crlf-ending', await hash('carol')));
  assert.ok(await verifyPassword('  spaces  ', await hash('dave')));
});

test('user add: bad input is refused with exit 1 and writes nothing', async (t) => {
  const { env, file } = tempDatabase(t);
  const cases: [string, string, RegExp][] = [
    ['alice', '', /the password is empty/],
    ['alice', '\n', /the password is empty/],
    ['alice', 'seven77\n', /shorter than 8 characters/],
    ['alice', 'x'.repeat(1025), /longer than 1024/],
    ['alice', 'x'.repeat(70_000), /too long/],
    ['al ice', 'wonderland', /1 to 64 characters/],
    ['', 'wonderland', /1 to 64 characters/],
    ['a'.repeat(65), 'wonderland', /1 to 64 characters/],
    ['alice\n', 'wonderland', /1 to 64 characters/],
  ];
  for (const [username, password, message] of cases) {
    const outcome = await run(['user', 'add', username], env, password);
    assert.equal(outcome.code, 1, JSON.stringify([username, password.slice(0, 20)]));
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^error: /);
    assert.match(outcome.stderr, message);
  }
  assert.equal(existsSync(file), false, 'the database was not even created');
});

test('user add: a taken username is refused and the first user kept', async (t) => {
  const { env, file } = await newDatabase(t);
  await run(['user', 'add', 'alice'], env, 'wonderland');
  const again = await run(['user', 'add', 'alice'], env, 'looking-glass');
  assert.equal(again.code, 1);
  assert.equal(again.stderr, 'error: user "alice" already exists\n');
  const store = openSqliteStore(file);
  t.after(() => store.close());
  assert.equal(await store.countUsers(), 1);
  assert.ok(
    await verifyPassword('wonderland', (await store.findUserCredentials('alice'))!.passwordHash),
  );
});

test('user list: one line per user, id, name, creation time, active or locked since when', async (t) => {
  const { env } = await newDatabase(t);
  assert.deepEqual(await run(['user', 'list'], env), { code: 0, stdout: '', stderr: '' });
  const at = (ms: number): CliOptions => ({ ...FAST, now: () => ms });
  await run(['user', 'add', 'alice'], env, 'wonderland', at(Date.UTC(2025, 0, 2, 3, 4, 5)));
  await run(['user', 'add', 'bob@example.com'], env, 'password1', at(Date.UTC(2025, 5, 1)));
  assert.deepEqual(await run(['user', 'list'], env), {
    code: 0,
    stdout:
      '1\talice\t2025-01-02T03:04:05.000Z\tactive\n' +
      '2\tbob@example.com\t2025-06-01T00:00:00.000Z\tactive\n',
    stderr: '',
  });
  await run(['user', 'lock', 'bob@example.com'], env, '', at(Date.UTC(2025, 6, 7, 8, 9, 10)));
  assert.deepEqual(await run(['user', 'list'], env), {
    code: 0,
    stdout:
      '1\talice\t2025-01-02T03:04:05.000Z\tactive\n' +
      '2\tbob@example.com\t2025-06-01T00:00:00.000Z\tlocked 2025-07-07T08:09:10.000Z\n',
    stderr: '',
  });
  await run(['user', 'unlock', 'bob@example.com'], env);
  assert.match((await run(['user', 'list'], env)).stdout, /^2\tbob@example\.com\t\S+\tactive$/m);
});

test("user passwd: the password from standard input replaces the old one and ends the user's sessions", async (t) => {
  const { env, file } = await newDatabase(t);
  await run(['user', 'add', 'alice'], env, 'wonderland\n');
  await run(['user', 'add', 'bob'], env, 'bobpassword\n');
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const hash = async (name: string) => (await store.findUserCredentials(name))!.passwordHash;
  const [alice, bob] = await store.listUsers();
  const timeouts = { idleMs: 60_000, absoluteMs: 60_000 };
  await store.createSession('laptop', alice!.id, await hash('alice'), 0);
  await store.createSession('phone', alice!.id, await hash('alice'), 0);
  await store.createSession('bob', bob!.id, await hash('bob'), 0);
  await store.createToken('token', alice!.id, 60_000, 0);
  assert.deepEqual(await run(['user', 'passwd', 'alice'], env, 'looking-glass\n'), {
    code: 0,
    stdout: 'password of user alice changed; 2 sessions ended, tokens kept\n',
    stderr: '',
  });
  assert.ok(await verifyPassword('looking-glass', await hash('alice')));
  assert.equal(await verifyPassword('wonderland', await hash('alice')), false);
  assert.ok(await verifyPassword('bobpassword', await hash('bob')), 'nobody else changes');
  assert.equal(await store.findSession('laptop', 1, timeouts), undefined);
  assert.equal(await store.findSession('phone', 1, timeouts), undefined);
  assert.equal((await store.findSession('bob', 1, timeouts))?.user.username, 'bob');
  assert.equal((await store.findToken('token', 1))?.user.username, 'alice', 'tokens are kept');
  assert.equal(
    (await run(['user', 'passwd', 'alice'], env, 'looking-glass\n')).stdout,
    'password of user alice changed; 0 sessions ended, tokens kept\n',
  );

  const refused: [string, string, string][] = [
    ['carol', 'a long password', 'error: no user is named "carol" (see user list)\n'],
    ['alice', 'seven77', 'error: the password is shorter than 8 characters'],
    ['alice', '', 'error: the password is empty'],
  ];
  for (const [username, password, message] of refused) {
    const outcome = await run(['user', 'passwd', username], env, password);
    assert.equal(outcome.code, 1, username);
    assert.equal(outcome.stdout, '');
    assert.ok(outcome.stderr.startsWith(message), outcome.stderr);
  }
  assert.ok(await verifyPassword('looking-glass', await hash('alice')), 'as it was');
});

test('user lock, unlock and remove: at once; again is fine; unknown is an error', async (t) => {
  const { env, file } = await newDatabase(t);
  await run(['user', 'add', 'alice'], env, 'wonderland\n');
  await run(['user', 'add', 'bob'], env, 'bobpassword\n');
  await run(['user', 'grant', 'alice', 'admin'], env);
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const lockedAt = async () => (await store.findUserCredentials('alice'))?.lockedAt;
  const at = (ms: number): CliOptions => ({ ...FAST, now: () => ms });

  assert.deepEqual(await run(['user', 'lock', 'alice'], env, '', at(1234)), {
    code: 0,
    stdout: 'user alice locked: its password, tokens and sessions are refused\n',
    stderr: '',
  });
  assert.deepEqual(await run(['user', 'lock', 'alice'], env, '', at(5678)), {
    code: 0,
    stdout: 'user alice was already locked\n',
    stderr: '',
  });
  assert.equal(await lockedAt(), 1234);
  assert.deepEqual(await run(['user', 'unlock', 'alice'], env), {
    code: 0,
    stdout: 'user alice unlocked\n',
    stderr: '',
  });
  assert.deepEqual(await run(['user', 'unlock', 'alice'], env), {
    code: 0,
    stdout: 'user alice was not locked\n',
    stderr: '',
  });
  assert.equal(await lockedAt(), null);

  const alice = (await store.findUserCredentials('alice'))!;
  assert.deepEqual(await run(['user', 'remove', 'alice'], env), {
    code: 0,
    stdout: 'user alice removed, with its tokens, sessions and grants\n',
    stderr: '',
  });
  assert.equal(await store.findUserCredentials('alice'), undefined);
  assert.deepEqual(await store.userScopes(alice.id), []);
  assert.deepEqual(
    (await store.listUsers()).map((user) => user.username),
    ['bob'],
  );
  for (const command of ['lock', 'unlock', 'remove']) {
    assert.deepEqual(await run(['user', command, 'alice'], env), {
      code: 1,
      stdout: '',
      stderr: 'error: no user is named "alice" (see user list)\n',
    });
  }
});

test('key add prints the key alone on the last line; only its digest is stored', async (t) => {
  const { env, file } = await newDatabase(t);
  const outcome = await run(['key', 'add', 'Billing service'], env);
  assert.equal(outcome.code, 0);
  assert.equal(outcome.stderr, '');
  const lines = outcome.stdout.split('\n');
  assert.equal(lines.length, 3);
  assert.equal(lines[2], '');
  assert.match(lines[0]!, /^key 1 created for "Billing service"/);
  const key = lines[1]!;
  assert.match(key, /^vk_[A-Za-z0-9_-]{43}$/);

  const store = openSqliteStore(file);
  t.after(() => store.close());
  const found = await store.findApplicationByKey(digest(key));
  assert.equal(found?.name, 'Billing service');
  assert.equal(found.keyPrefix, key.slice(0, 11));
  assert.equal(await store.findApplicationByKey(key), undefined, 'the key itself is not stored');
});

test('key add: a bad application name is refused and writes nothing', async (t) => {
  const { env, file } = tempDatabase(t);
  for (const name of ['', 'x'.repeat(101), 'tab\there', 'new\nline', ' padded']) {
    const outcome = await run(['key', 'add', name], env);
    assert.equal(outcome.code, 1, JSON.stringify(name));
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^error: an application name/);
  }
  assert.equal(existsSync(file), false);
});

test('key list and key revoke: revocation at once; again is fine; unknown is an error', async (t) => {
  const { env, file } = await newDatabase(t);
  const when = Date.UTC(2025, 2, 3, 4, 5, 6);
  const first = lastLine((await run(['key', 'add', 'one'], env)).stdout);
  const second = lastLine((await run(['key', 'add', 'two'], env)).stdout);

  assert.deepEqual(await run(['key', 'revoke', '1'], env, '', { now: () => when }), {
    code: 0,
    stdout: 'key 1 revoked\n',
    stderr: '',
  });
  const store = openSqliteStore(file);
  t.after(() => store.close());
  assert.equal(await store.findApplicationByKey(digest(first)), undefined);
  assert.equal((await store.findApplicationByKey(digest(second)))?.name, 'two');

  assert.deepEqual(await run(['key', 'revoke', '1'], env), {
    code: 0,
    stdout: 'key 1 was already revoked on 2025-03-03T04:05:06.000Z\n',
    stderr: '',
  });
  assert.deepEqual(await run(['key', 'list'], env), {
    code: 0,
    stdout:
      `1\t${first.slice(0, 11)}…\tone\trevoked 2025-03-03T04:05:06.000Z\n` +
      `2\t${second.slice(0, 11)}…\ttwo\tactive\n`,
    stderr: '',
  });
  for (const id of ['3', '0', '-1', 'x', '1.5', '99999999999999999999']) {
    const outcome = await run(['key', 'revoke', id], env);
    assert.equal(outcome.code, 1, id);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, id === '3' ? /^error: no key has id 3/ : /^error: a key id is/);
  }
  assert.equal((await store.findApplicationByKey(digest(second)))?.name, 'two');
});

test('user grant and revoke-scope: at once; again is fine; unknown or malformed is an error', async (t) => {
  const { env, file } = await newDatabase(t);
  await run(['user', 'add', 'alice'], env, 'wonderland\n');
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const alice = (await store.findUserCredentials('alice'))!;
  const grants = () => store.userScopes(alice.id);

  assert.deepEqual(await run(['user', 'grant', 'alice', 'admin'], env), {
    code: 0,
    stdout: 'scope admin granted to user alice\n',
    stderr: '',
  });
  assert.deepEqual(await run(['user', 'grant', 'alice', 'admin'], env), {
    code: 0,
    stdout: 'user alice already has scope admin\n',
    stderr: '',
  });
  assert.equal((await run(['user', 'grant', 'alice', 'pets:read'], env)).code, 0);
  assert.deepEqual(await grants(), ['admin', 'pets:read']);
  assert.deepEqual(await run(['user', 'revoke-scope', 'alice', 'admin'], env), {
    code: 0,
    stdout: "scope admin withdrawn from user alice and the user's tokens\n",
    stderr: '',
  });
  assert.deepEqual(await run(['user', 'revoke-scope', 'alice', 'admin'], env), {
    code: 0,
    stdout: 'user alice does not have scope admin\n',
    stderr: '',
  });
  assert.deepEqual(await grants(), ['pets:read']);

  for (const command of ['grant', 'revoke-scope']) {
    assert.deepEqual(await run(['user', command, 'bob', 'admin'], env), {
      code: 1,
      stdout: '',
      stderr: 'error: no user is named "bob" (see user list)\n',
    });
    for (const scope of ['two words', 'say"what', 'back\\slash', 'é', '', 'x'.repeat(65)]) {
      const outcome = await run(['user', command, 'alice', scope], env);
      assert.equal(outcome.code, 1, scope);
      assert.match(outcome.stderr, /^error: a scope is 1 to 64 printable ASCII characters/);
    }
  }
  assert.deepEqual(await grants(), ['pets:read']);
});

test('key grant and revoke-scope: at once; again is fine; unknown or malformed is an error', async (t) => {
  const { env, file } = await newDatabase(t);
  await run(['key', 'add', 'billing'], env);
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const scopes = async () => (await store.listApplications())[0]?.scopes;

  assert.deepEqual(await run(['key', 'grant', '1', 'invoices:write'], env), {
    code: 0,
    stdout: 'scope invoices:write granted to key 1\n',
    stderr: '',
  });
  assert.equal(
    (await run(['key', 'grant', '1', 'invoices:write'], env)).stdout,
    'key 1 already has scope invoices:write\n',
  );
  assert.deepEqual(await scopes(), ['invoices:write']);
  assert.deepEqual(await run(['key', 'revoke-scope', '1', 'invoices:write'], env), {
    code: 0,
    stdout: 'scope invoices:write withdrawn from key 1\n',
    stderr: '',
  });
  assert.equal(
    (await run(['key', 'revoke-scope', '1', 'invoices:write'], env)).stdout,
    'key 1 does not have scope invoices:write\n',
  );
  assert.deepEqual(await scopes(), []);
  for (const command of ['grant', 'revoke-scope']) {
    assert.deepEqual(await run(['key', command, '7', 'admin'], env), {
      code: 1,
      stdout: '',
      stderr: 'error: no key has id 7 (see key list)\n',
    });
    assert.match((await run(['key', command, 'one', 'admin'], env)).stderr, /^error: a key id is/);
    assert.match((await run(['key', command, '1', 'a b'], env)).stderr, /^error: a scope is/);
  }
});

test('token revoke: the token from standard input, at once; again is fine; unknown is an error', async (t) => {
  const { env, file } = await newDatabase(t);
  const [revoked, kept] = [newSecret(), newSecret()];
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'not a real hash', 0);
  const later = Date.now() + 3_600_000;
  for (const token of [revoked, kept]) {
    await store.createToken(digest(token), alice.id, later, Date.now());
  }

  assert.deepEqual(await run(['token', 'revoke'], env, `${revoked}\n`), {
    code: 0,
    stdout: 'token revoked\n',
    stderr: '',
  });
  assert.equal(await store.findToken(digest(revoked), Date.now()), undefined);
  assert.equal((await store.findToken(digest(kept), Date.now()))?.user.username, 'alice');
  assert.deepEqual(await run(['token', 'revoke'], env, revoked), {
    code: 0,
    stdout: 'token was already revoked\n',
    stderr: '',
  });
  assert.deepEqual(await run(['token', 'revoke'], env, newSecret()), {
    code: 1,
    stdout: '',
    stderr: 'error: no such token\n',
  });
  // One word that is no token from POST /api/token, however short, is simply unknown.
  for (const input of ['short', 'x', 'a-b_c\n']) {
    assert.deepEqual(await run(['token', 'revoke'], env, input), {
      code: 1,
      stdout: '',
      stderr: 'error: no such token\n',
    });
  }
  for (const input of ['', '\n', `Bearer ${kept}`, `${kept} ${kept}`, 'x'.repeat(70_000)]) {
    const outcome = await run(['token', 'revoke'], env, input);
    assert.equal(outcome.code, 1, input.slice(0, 20));
    assert.equal(outcome.stdout, '');
    assert.equal(
      outcome.stderr,
      'error: standard input holds no token (the access_token of POST /api/token)\n',
    );
    assert.doesNotMatch(outcome.stderr, new RegExp(kept));
  }
  assert.equal((await store.findToken(digest(kept), Date.now()))?.user.username, 'alice');
});

test('token revoke --user: every token of the user at once, those that worked counted', async (t) => {
  const { env, file } = await newDatabase(t);
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'not a real hash', 0);
  const bob = await store.createUser('bob', 'not a real hash', 0);
  const later = Date.now() + 3_600_000;
  const [laptop, phone, script, bobs] = [newSecret(), newSecret(), newSecret(), newSecret()];
  for (const token of [laptop, phone, script]) {
    await store.createToken(digest(token), alice.id, later, Date.now());
  }
  await store.createToken(digest(newSecret()), alice.id, Date.now() - 1, 0);
  await store.createToken(digest(bobs), bob.id, later, Date.now());
  const holder = async (token: string) =>
    (await store.findToken(digest(token), Date.now()))?.user.username;

  assert.deepEqual(await run(['token', 'revoke', '--user', 'alice'], env), {
    code: 0,
    stdout: '3 tokens of user alice revoked\n',
    stderr: '',
  });
  for (const token of [laptop, phone, script]) assert.equal(await holder(token), undefined);
  assert.equal(await holder(bobs), 'bob', "another user's token keeps working");
  assert.deepEqual(await run(['token', 'revoke', '--user', 'alice'], env), {
    code: 0,
    stdout: '0 tokens of user alice revoked\n',
    stderr: '',
  });

  // An unknown user is an error that changes nothing, whatever standard input holds.
  const fresh = newSecret();
  await store.createToken(digest(fresh), alice.id, later, Date.now());
  for (const username of ['carol', 'Alice', '']) {
    assert.deepEqual(await run(['token', 'revoke', '--user', username], env, `${fresh}\n`), {
      code: 1,
      stdout: '',
      stderr: `error: no user is named ${JSON.stringify(username)} (see user list)\n`,
    });
  }
  assert.equal(await holder(fresh), 'alice');
  assert.equal(await holder(bobs), 'bob');
  assert.deepEqual(await run(['token', 'revoke', '--user', 'bob'], env), {
    code: 0,
    stdout: '1 token of user bob revoked\n',
    stderr: '',
  });
  assert.equal(await holder(fresh), 'alice');
  assert.match(USAGE, /^ {2}token revoke --user <username> +revoke every token of a user/m);
});

test('token revoke --user as a real process: its output and exit statuses', async (t) => {
  const { env, file } = await newDatabase(t);
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'not a real hash', 0);
  const tokens = [newSecret(), newSecret()];
  for (const token of tokens) {
    await store.createToken(digest(token), alice.id, Date.now() + 3_600_000, Date.now());
  }
  const [revoked, unknown, incomplete] = await Promise.all([
    spawnCli(['token', 'revoke', '--user', 'alice'], env),
    spawnCli(['token', 'revoke', '--user', 'carol'], env),
    spawnCli(['token', 'revoke', '--user'], env),
  ]);
  assert.deepEqual(revoked, { code: 0, stdout: '2 tokens of user alice revoked\n', stderr: '' });
  assert.deepEqual(unknown, {
    code: 1,
    stdout: '',
    stderr: 'error: no user is named "carol" (see user list)\n',
  });
  assert.equal(incomplete.code, 2);
  assert.match(incomplete.stderr, /^token revoke --user needs a <username>\n\nUsage:/);
  for (const token of tokens) {
    assert.equal(await store.findToken(digest(token), Date.now()), undefined);
  }
});

test('DATABASE_URL: unsupported engines are a clear error; unset means ./data/vouch.db', async (t) => {
  const outcome = await run(['user', 'list'], { DATABASE_URL: 'mysql://u:secret@db/vouch' });
  assert.equal(outcome.code, 1);
  assert.match(outcome.stderr, /^error: DATABASE_URL must look like .*"mysql:" is not supported/);
  assert.doesNotMatch(outcome.stderr, /secret/);

  const dir = mkdtempSync(join(tmpdir(), 'vouch-cli-cwd-'));
  const previous = process.cwd();
  process.chdir(dir);
  t.after(() => {
    process.chdir(previous);
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(process.cwd(), 'data', 'vouch.db');
  for (const env of [{}, { DATABASE_URL: '' }]) {
    assert.deepEqual(await run(['user', 'list'], env), {
      code: 1,
      stdout: '',
      stderr: `error: no database at ${file}; nothing was created (the service creates it when it first starts): check DATABASE_URL\n`,
    });
  }
  assert.equal(existsSync(join(dir, 'data')), false);
  await (await openStore('sqlite:./data/vouch.db')).close();
  assert.equal((await run(['user', 'list'], {})).code, 0);
  assert.equal((await run(['user', 'list'], { DATABASE_URL: '' })).code, 0);
});

/** Every command that opens the database, with input it accepts. */
const STORE_COMMANDS: [string[], string][] = [
  [['user', 'add', 'alice'], 'wonderland\n'],
  [['user', 'list'], ''],
  [['user', 'grant', 'alice', 'admin'], ''],
  [['user', 'revoke-scope', 'alice', 'admin'], ''],
  [['key', 'add', 'billing'], ''],
  [['key', 'list'], ''],
  [['key', 'revoke', '1'], ''],
  [['key', 'grant', '1', 'admin'], ''],
  [['key', 'revoke-scope', '1', 'admin'], ''],
  [['token', 'revoke'], `${newSecret()}\n`],
  [['token', 'revoke', '--user', 'alice'], ''],
];

test('a database that does not exist is refused by every command, which creates nothing', async (t) => {
  const { dir, file, env } = tempDatabase(t);
  for (const [argv, input] of STORE_COMMANDS) {
    const outcome = await run(argv, env, input);
    assert.equal(outcome.code, 1, argv.join(' '));
    assert.equal(outcome.stdout, '');
    assert.equal(outcome.stderr.split('\n').length, 2, 'one line');
    assert.ok(outcome.stderr.startsWith(`error: no database at ${file};`), outcome.stderr);
  }
  assert.deepEqual(readdirSync(dir), [], 'not even its folder');
});

test('a file that is not a vouch database is refused, and left as it was', async (t) => {
  const { dir } = tempDatabase(t);
  const other = new Database(join(dir, 'other.db'));
  other.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
  other.close();
  const versioned = new Database(join(dir, 'versioned.db'));
  versioned.exec('CREATE TABLE users (name TEXT); PRAGMA user_version = 2');
  versioned.close();
  writeFileSync(join(dir, 'empty.db'), '');
  writeFileSync(join(dir, 'notes.txt'), 'not a database at all, but long enough to look at\n');
  mkdirSync(join(dir, 'folder.db'));
  const cases: [string, string][] = [
    ['other.db', "another program's SQLite database"],
    ['versioned.db', "another program's SQLite database"],
    ['empty.db', 'an empty file'],
    ['notes.txt', 'not a SQLite file'],
    ['folder.db', 'a folder'],
  ];
  const before = snapshot(dir);
  for (const [name, why] of cases) {
    const file = join(dir, name);
    for (const [argv, input] of STORE_COMMANDS) {
      const outcome = await run(argv, { DATABASE_URL: `sqlite:${file}` }, input);
      assert.deepEqual(
        outcome,
        {
          code: 1,
          stdout: '',
          stderr: `error: ${file} is not a vouch database (${why}); it was left as it was: check DATABASE_URL\n`,
        },
        `${name}: ${argv.join(' ')}`,
      );
    }
  }
  assert.deepEqual(snapshot(dir), before);
});

test('end to end: the real process, its streams and exit codes, across restarts', async (t) => {
  const { env, file } = tempDatabase(t);
  const [help, unknown, badName] = await Promise.all([
    spawnCli(['--help'], env),
    spawnCli(['user', 'rename', 'x'], env),
    spawnCli(['user', 'add', 'bad name'], env, 'wonderland\n'),
  ]);
  assert.deepEqual(help, { code: 0, stdout: USAGE, stderr: '' });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^not a command: user rename x\n\nUsage:/);
  assert.equal(badName.code, 1);
  assert.match(badName.stderr, /^error: a username is 1 to 64 characters/);
  assert.equal(existsSync(file), false, 'bad input wrote nothing');

  // A mistyped path is refused by the real process too, which creates nothing.
  const mistyped = await spawnCli(['user', 'list'], { DATABASE_URL: `sqlite:${file}x` });
  assert.equal(mistyped.code, 1);
  assert.match(mistyped.stderr, /^error: no database at /);
  assert.ok(mistyped.stderr.includes(`${file}x`));
  assert.equal(existsSync(`${file}x`), false);

  // The service's first start creates the database; the commands work on it from then on.
  await (await openStore(env.DATABASE_URL!)).close();
  // The real OWASP cost here, on purpose.
  const added = await spawnCli(['user', 'add', 'alice'], env, 'wonderland\n');
  assert.deepEqual(added, { code: 0, stdout: 'user alice added (id 1)\n', stderr: '' });
  const [duplicate, short, key] = await Promise.all([
    spawnCli(['user', 'add', 'alice'], env, 'other password\n'),
    spawnCli(['user', 'add', 'bob'], env, 'short\n'),
    spawnCli(['key', 'add', 'reporting'], env),
  ]);
  assert.deepEqual(duplicate, {
    code: 1,
    stdout: '',
    stderr: 'error: user "alice" already exists\n',
  });
  assert.equal(short.code, 1);
  assert.match(short.stderr, /shorter than 8/);
  assert.equal(key.code, 0);
  const apiKey = lastLine(key.stdout);
  assert.match(apiKey, /^vk_[A-Za-z0-9_-]{43}$/);
  assert.ok(key.stdout.endsWith(`\n${apiKey}\n`), 'the key is alone on the last line');

  const [users, keys] = await Promise.all([
    spawnCli(['user', 'list'], env),
    spawnCli(['key', 'list'], env),
  ]);
  assert.match(users.stdout, /^1\talice\t\d{4}-\d\d-\d\dT[\d:.]+Z\tactive\n$/);
  assert.equal(keys.stdout, `1\t${apiKey.slice(0, 11)}…\treporting\tactive\n`);
  assert.equal((await spawnCli(['user', 'lock', 'alice'], env)).code, 0);
  assert.match(
    (await spawnCli(['user', 'list'], env)).stdout,
    /^1\talice\t\d{4}-\d\d-\d\dT[\d:.]+Z\tlocked \d{4}-\d\d-\d\dT[\d:.]+Z\n$/,
  );

  // A restart (a fresh connection) keeps the user and the key…
  let store = openSqliteStore(file);
  assert.ok(
    await verifyPassword('wonderland', (await store.findUserCredentials('alice'))!.passwordHash),
  );
  assert.equal((await store.findApplicationByKey(digest(apiKey)))?.name, 'reporting');
  await store.close();

  // …and the revocation.
  const [revoked, missing] = await Promise.all([
    spawnCli(['key', 'revoke', '1'], env),
    spawnCli(['key', 'revoke', '2'], env),
  ]);
  assert.deepEqual(revoked, { code: 0, stdout: 'key 1 revoked\n', stderr: '' });
  assert.deepEqual(missing, {
    code: 1,
    stdout: '',
    stderr: 'error: no key has id 2 (see key list)\n',
  });
  store = openSqliteStore(file);
  t.after(() => store.close());
  assert.equal(await store.findApplicationByKey(digest(apiKey)), undefined);
  assert.equal(await store.countUsers(), 1);
});

test('user add on a terminal: the password is typed twice and never shown', async (t) => {
  const { env, file } = await newDatabase(t);
  const password = `Typed-${newSecret(16)}`;
  // A slip corrected with Backspace, as on any terminal.
  const outcome = await onTerminal(['user', 'add', 'alice'], env, [
    ['Password:', `${password}\r`],
    ['Password again:', `${password}x\x7f\r`],
  ]);
  assert.equal(outcome.code, 0, outcome.screen);
  assert.match(outcome.screen, /Password: \r?\nPassword again: \r?\nuser alice added \(id 1\)/);
  assert.equal(outcome.screen.includes(password.slice(0, 8)), false, outcome.screen);
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const alice = await store.findUserCredentials('alice');
  assert.ok(alice !== undefined && (await verifyPassword(password, alice.passwordHash)));
});

test('user add on a terminal: two different passwords, or Ctrl-C or Ctrl-D, add no one', async (t) => {
  const { env, file } = await newDatabase(t);
  const [one, two] = [`Typed-${newSecret(16)}`, `Typed-${newSecret(16)}`];
  const cases: [[string, string][], string][] = [
    [
      [
        ['Password:', `${one}\r`],
        ['Password again:', `${two}\r`],
      ],
      'error: the two passwords differ; nothing was written',
    ],
    [[['Password:', `${one}\x03`]], 'error: nothing was typed'],
    [[['Password:', '\x04']], 'error: nothing was typed'],
  ];
  for (const [typing, message] of cases) {
    const outcome = await onTerminal(['user', 'add', 'alice'], env, typing);
    assert.equal(outcome.code, 1, outcome.screen);
    assert.ok(outcome.screen.includes(message), outcome.screen);
    for (const password of [one, two]) {
      assert.equal(outcome.screen.includes(password.slice(0, 8)), false, outcome.screen);
    }
  }
  const store = openSqliteStore(file);
  t.after(() => store.close());
  assert.equal(await store.countUsers(), 0);
});

test('token revoke on a terminal: the token is typed and never shown', async (t) => {
  const { env, file } = await newDatabase(t);
  const token = newSecret();
  const store = openSqliteStore(file);
  t.after(() => store.close());
  const alice = await store.createUser('alice', 'not a real hash', 0);
  await store.createToken(digest(token), alice.id, Date.now() + 3_600_000, Date.now());
  const outcome = await onTerminal(['token', 'revoke'], env, [['Token:', `${token}\r`]]);
  assert.equal(outcome.code, 0, outcome.screen);
  assert.match(outcome.screen, /Token: \r?\ntoken revoked/);
  assert.equal(outcome.screen.includes(token.slice(0, 8)), false, outcome.screen);
  assert.equal(await store.findToken(digest(token), Date.now()), undefined);
});
