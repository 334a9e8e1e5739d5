import { Authenticator, DEFAULT_MAX_CREDENTIAL_LENGTH, quote } from '../core/authenticator.js';
import type { AuthenticatorOptions } from '../core/authenticator.js';
import { judgeHook, REJECTED } from '../core/outcome.js';
import type { Awaitable, Extraction, Nothing, Outcome } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requireHookOrSecrets, schemeNamePart } from '../core/configuration-checks.js';
import { StaticCredentials, type StaticEntries } from '../internal/static-credentials.js';

/** The API-key hook: resolve a key to its owner, or return nothing to reject. */
export type KeyHook<TAuth> = (request: AuthRequest, key: string) => Awaitable<TAuth | Nothing>;

/** Where an API key travels. */
export type APIKeyLocation = 'query' | 'header' | 'cookie';

/** Options shared by the three API-key kinds. */
export interface APIKeyOptions<TAuth> extends AuthenticatorOptions {
  /** Name of the query parameter, header or cookie carrying the key (default `key`). */
  readonly paramName?: string;
  /** Resolves the key; alternatively override `authenticate` in a subclass, or give `keys`. */
  readonly authenticate?: KeyHook<TAuth>;
  /**
   * Keys known in advance (from configuration), each with what it authenticates as, checked in
   * constant time instead of by a hook: `new Map([[process.env.PARTNER_KEY, { app: 'partner' }]])`.
   * Each must be no longer than `maxLength`.
   */
  readonly keys?: StaticEntries<TAuth>;
  /** Longest key accepted, in characters (default 4096). */
  readonly maxLength?: number;
  /** Documented description of the scheme. */
  readonly description?: string;
}

/** Reads the raw key from where a kind of API key travels; never throws. */
export type KeyReader = (request: RequestView) => Extraction<string>;

/**
 * The shared machinery of {@link APIKeyQuery}, {@link APIKeyHeader} and {@link APIKeyCookie}:
 * each kind gives the reader of its transport, for the parameter name in force.
 */
export abstract class APIKey<TAuth = unknown> extends Authenticator<TAuth> {
  /** Name of the query parameter, header or cookie carrying the key. */
  readonly paramName: string;
  /** Where the key travels. */
  abstract readonly in: APIKeyLocation;
  readonly #read: KeyReader;
  readonly #hook: KeyHook<TAuth> | undefined;
  readonly #keys: StaticCredentials<TAuth> | undefined;
  readonly #maxLength: number;
  readonly #description: string | undefined;

  constructor(
    kind: 'Query' | 'Header' | 'Cookie',
    options: APIKeyOptions<TAuth>,
    reader: (paramName: string) => KeyReader,
  ) {
    const paramName = options.paramName ?? 'key';
    super(`apiKey${kind}_${schemeNamePart(paramName)}`, options);
    requireHookOrSecrets(
      `APIKey${kind}`,
      'keys',
      options.authenticate !== undefined,
      this.authenticate !== APIKey.prototype.authenticate,
      options.keys !== undefined,
    );
    this.paramName = paramName;
    this.#read = reader(paramName);
    this.#hook = options.authenticate;
    const maxLength = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
    this.#maxLength = maxLength;
    if (options.keys !== undefined) {
      this.#keys = new StaticCredentials(`APIKey${kind} keys`, options.keys, (key) =>
        key.length > maxLength ? `is longer than maxLength (${String(maxLength)})` : undefined,
      );
    }
    this.#description = options.description;
  }

  /** Resolves a key to its owner; returns `undefined`, `null` or `false` to reject. */
  authenticate(request: AuthRequest, key: string): Awaitable<TAuth | Nothing> {
    if (this.#keys !== undefined) return this.#keys.lookup(key);
    // requireHookOrSecrets guarantees a hook whenever this base method is in force without keys.
    return (this.#hook as KeyHook<TAuth>)(request, key);
  }

  /**
   * Reads the key from its transport and asks the hook (or the static keys) about it. A key sent
   * in a cookie is what a CSRF token must be bound to.
   */
  override verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>> {
    const found = this.#read(request);
    if (found.state !== 'present') return found;
    const key = found.credential;
    if (key.length > this.#maxLength) return REJECTED;
    // The adapter passes its own request object, which is the registered AuthRequest type.
    const result = this.authenticate(request as AuthRequest, key);
    return judgeHook(result, this.cookieBased ? key : undefined);
  }

  override get securityScheme(): SecurityScheme {
    return {
      type: 'apiKey',
      in: this.in,
      name: this.paramName,
      ...(this.#description === undefined ? {} : { description: this.#description }),
    };
  }

  override challenge(realm: string): string {
    return `APIKey realm=${quote(realm)}, in="${this.in}", name=${quote(this.paramName)}`;
  }

  override get readsCredential(): boolean {
    return true;
  }

  /** A key is no `Authorization` credential: shared caches would not keep replies to themselves. */
  override get privateResponses(): boolean {
    return true;
  }
}
