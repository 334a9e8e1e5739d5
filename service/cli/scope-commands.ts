import { scopeProblem } from '../security/scopes.js';
import type { Store } from '../store/store.js';
import { type CliContext } from './cli-context.js';
import { keyId } from './key-commands.js';
import { CliError, NotFoundError } from '../errors.js';

/** Who holds scopes, as the commands name and change them. */
interface Holder {
  /** `user alice`, `key 2`. */
  readonly name: string;
  /** Said when the holder does not exist. */
  readonly unknown: string;
  /** What else loses a scope withdrawn from it, if anything, for the message. */
  readonly alsoLoses: string;
  /** Grants (or withdraws) a scope: `true` when done now, `false` when it already held. */
  change(store: Store, change: 'grant' | 'revoke', scope: string): Promise<boolean>;
}

/**
 * Checks the scope before the database is opened, makes the change in one transaction and says
 * what happened. A change that already held (granting a scope held, withdrawing one not held)
 * succeeds: the state asked for holds. An unknown holder is an error.
 */
async function changeGrant(
  context: CliContext,
  change: 'grant' | 'revoke',
  scope: string,
  holder: Holder,
): Promise<void> {
  const problem = scopeProblem(scope);
  if (problem !== undefined) throw new CliError(`${problem}: ${JSON.stringify(scope)}`);
  const changed = await context.withStore((store) =>
    holder.change(store, change, scope).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw new CliError(holder.unknown);
      throw error;
    }),
  );
  const { name } = holder;
  const message =
    change === 'grant'
      ? changed
        ? `scope ${scope} granted to ${name}`
        : `${name} already has scope ${scope}`
      : changed
        ? `scope ${scope} withdrawn from ${name}${holder.alsoLoses}`
        : `${name} does not have scope ${scope}`;
  context.io.stdout.write(`${message}\n`);
}

function user(username: string): Holder {
  return {
    name: `user ${username}`,
    unknown: `no user is named ${JSON.stringify(username)} (see user list)`,
    alsoLoses: " and the user's tokens",
    change: (store, change, scope) =>
      change === 'grant'
        ? store.grantUserScope(username, scope)
        : store.revokeUserScope(username, scope),
  };
}

function key(id: string): Holder {
  const numeric = keyId(id);
  return {
    name: `key ${numeric}`,
    unknown: `no key has id ${numeric} (see key list)`,
    alsoLoses: '',
    change: (store, change, scope) =>
      change === 'grant'
        ? store.grantApplicationScope(numeric, scope)
        : store.revokeApplicationScope(numeric, scope),
  };
}

/** `user grant <username> <scope>`: the user's new tokens may carry the scope. */
export async function grantUserScope(context: CliContext, username: string, scope: string) {
  await changeGrant(context, 'grant', scope, user(username));
}

/**
 * `user revoke-scope <username> <scope>`: withdrawn from the user and the user's tokens, at once
 * and for good (granted again, it is for the tokens issued after).
 */
export async function revokeUserScope(context: CliContext, username: string, scope: string) {
  await changeGrant(context, 'revoke', scope, user(username));
}

/** `key grant <id> <scope>`: the key carries the scope from now on. */
export async function grantKeyScope(context: CliContext, id: string, scope: string) {
  await changeGrant(context, 'grant', scope, key(id));
}

/** `key revoke-scope <id> <scope>`: withdrawn from the key at once. */
export async function revokeKeyScope(context: CliContext, id: string, scope: string) {
  await changeGrant(context, 'revoke', scope, key(id));
}
