import { ConfigurationError } from '../core/errors.js';
import { isAccepted } from '../core/outcome.js';
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
