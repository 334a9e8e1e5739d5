import { applicationNameProblem } from '../security/credential-rules.js';
import { digest, newApiKey } from '../security/secrets.js';
import { type CliContext } from './cli-context.js';
import { CliError, NotFoundError } from '../errors.js';

/**
 * `key add <application-name>`: creates the application and prints a line describing it, then
 * the key alone on the last line. Only the key's digest and prefix are stored; it cannot be shown
 * again.
 */
export async function addKey(context: CliContext, name: string): Promise<void> {
  const problem = applicationNameProblem(name);
  if (problem !== undefined) throw new CliError(`${problem}: ${JSON.stringify(name)}`);
  const { key, prefix } = newApiKey();
  const application = await context.withStore((store) =>
    store.createApplication(name, prefix, digest(key), context.now()),
  );
  context.io.stdout.write(
    `key ${application.id} created for ${JSON.stringify(name)}; copy it now, it is not shown again:\n${key}\n`,
  );
}

/** `key list`: one line per key, `id<TAB>prefix…<TAB>name<TAB>active` or `revoked <when>`. */
export async function listKeys(context: CliContext): Promise<void> {
  const applications = await context.withStore((store) => store.listApplications());
  for (const app of applications) {
    const state = app.revokedAt === null ? 'active' : `revoked ${iso(app.revokedAt)}`;
    context.io.stdout.write(`${app.id}\t${app.keyPrefix}…\t${app.name}\t${state}\n`);
  }
}

/**
 * `key revoke <id>`: the key stops working at once. Revoking a key already revoked succeeds
 * (exit 0) and says since when: the state asked for holds. An unknown id is an error.
 */
export async function revokeKey(context: CliContext, id: string): Promise<void> {
  const numeric = keyId(id);
  await context.withStore(async (store) => {
    const revoked = await store
      .revokeApplication(numeric, context.now())
      .catch((error: unknown) => {
        if (error instanceof NotFoundError)
          throw new CliError(`no key has id ${numeric} (see key list)`);
        throw error;
      });
    if (revoked) {
      context.io.stdout.write(`key ${numeric} revoked\n`);
      return;
    }
    const revokedAt = (await store.listApplications()).find((app) => app.id === numeric)?.revokedAt;
    context.io.stdout.write(
      `key ${numeric} was already revoked${revokedAt == null ? '' : ` on ${iso(revokedAt)}`}\n`,
    );
  });
}

/** The key id an argument names; `CliError` unless it is a positive whole number. */
export function keyId(id: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(id)) {
    throw new CliError(`a key id is a positive whole number (see key list): ${JSON.stringify(id)}`);
  }
  return Number(id);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
