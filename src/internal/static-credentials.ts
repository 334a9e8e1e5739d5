import { requireHookOrSecrets } from '../core/configuration-checks.js';
import { ConfigurationError } from '../core/errors.js';
import { isAccepted, type Awaitable, type Nothing } from '../core/outcome.js';
import type { AuthRequest } from '../core/request.js';
import { timingSafeIndex } from '../core/timing-safe-matcher.js';

/** Static credentials as options take them: each secret with what it authenticates as. */
export type StaticEntries<TAuth> = Iterable<readonly [secret: string, auth: TAuth]>;

/**
 * Credentials known when the app starts (tokens or keys from configuration), each with the value
 * that becomes `request.auth`. A lookup compares the presented credential with every secret in
 * constant time (`timingSafeIndex`), so neither the time nor the order of the secrets tells which
 * one matched, or how much of one did.
 */
export class StaticCredentials<TAuth> {
  /** What each secret authenticates as, at the secret's position. */
  readonly #values: readonly TAuth[];
  readonly #indexOf: (presented: string) => number;

  /**
   * @param what - the option as the error should name it, e.g. `HttpBearer tokens`.
   * @param refuse - why a secret could never be presented and accepted, or `undefined`.
   * @throws ConfigurationError when there is no entry, a secret is not a non-empty string or is
   *   given twice, a value would reject (`undefined`, `null`, `false`), or `refuse` gives a reason.
   */
  constructor(
    what: string,
    entries: StaticEntries<TAuth>,
    refuse: (secret: string) => string | undefined,
  ) {
    const secrets: string[] = [];
    const values: TAuth[] = [];
    const seen = new Set<string>();
    for (const entry of entries) {
      const [secret, value] = entry as readonly [unknown, TAuth | undefined];
      if (typeof secret !== 'string' || secret === '') {
        throw new ConfigurationError(`${what}: every secret must be a non-empty string`);
      }
      // The position, never the secret: configuration errors are logged.
      const position = `the secret at position ${secrets.length + 1}`;
      if (seen.has(secret)) throw new ConfigurationError(`${what}: ${position} is given twice`);
      if (!isAccepted(value)) {
        throw new ConfigurationError(
          `${what}: ${position} authenticates as ${String(value)}, which would reject it; give the value request.auth should be`,
        );
      }
      const reason = refuse(secret);
      if (reason !== undefined) throw new ConfigurationError(`${what}: ${position} ${reason}`);
      seen.add(secret);
      secrets.push(secret);
      values.push(value);
    }
    if (secrets.length === 0) throw new ConfigurationError(`${what}: give at least one secret`);
    this.#values = values;
    this.#indexOf = timingSafeIndex(secrets);
  }

  /** What the secret equal to `presented` authenticates as, or `undefined`; the same work for any. */
  lookup(presented: string): TAuth | undefined {
    const index = this.#indexOf(presented);
    return index === -1 ? undefined : this.#values[index];
  }
}

/** A hook over one string credential (a token, a key), as `HttpBearer` and the API keys call it. */
export type CredentialHook<TAuth> = (
  request: AuthRequest,
  credential: string,
) => Awaitable<TAuth | Nothing>;

/** How a kind taking static secrets was told to judge its credentials. */
export interface SecretsOrHookOptions<TAuth> {
  /** The `authenticate` option. */
  readonly hook: CredentialHook<TAuth> | undefined;
  /** The static secrets option (`tokens`, `keys`). */
  readonly secrets: StaticEntries<TAuth> | undefined;
  /** Whether a subclass overrides `authenticate`, which then never calls the check returned. */
  readonly overridden: boolean;
  /** The longest credential the kind reads: a longer secret could never be presented. */
  readonly maxLength: number;
  /** Why a secret lacks the form the kind's credentials have, or `undefined` when it has it. */
  readonly malformed?: (secret: string) => string | undefined;
}

/**
 * The check behind the `authenticate` method of a kind that takes static secrets or a hook: a
 * constant-time lookup in the secrets when given, else the hook.
 *
 * @param kind - the kind as errors name it, e.g. `HttpBearer`.
 * @param option - the name of its secrets option, e.g. `tokens`.
 * @throws ConfigurationError unless exactly one of the hook, the override and the secrets is
 *   given, or when a secret could never be accepted: too long, malformed, or as
 *   {@link StaticCredentials} refuses it.
 */
export function secretsOrHook<TAuth>(
  kind: string,
  option: string,
  given: SecretsOrHookOptions<TAuth>,
): CredentialHook<TAuth> {
  const { hook, secrets, overridden } = given;
  requireHookOrSecrets(kind, option, hook !== undefined, overridden, secrets !== undefined);
  if (secrets === undefined) return hook ?? noHook;
  const { maxLength, malformed } = given;
  const credentials = new StaticCredentials(`${kind} ${option}`, secrets, (secret) => {
    if (secret.length > maxLength) return `is longer than maxLength (${String(maxLength)})`;
    return malformed?.(secret);
  });
  return (_request, credential) => credentials.lookup(credential);
}

/** The check of a kind whose subclass overrides `authenticate`: only `super.authenticate()` calls it. */
function noHook(): never {
  throw new Error('no authenticate hook was given, so super.authenticate() has none to call');
}
