import { quote, type AuthenticatorOptions } from '../core/authenticator.js';
import {
  CredentialAuthenticator,
  DEFAULT_MAX_CREDENTIAL_LENGTH,
} from '../core/credential-authenticator.js';
import { REJECTED, type Awaitable, type Extraction, type Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { requireHookOrSecrets, schemeNamePart } from '../internal/hook.js';
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

/** The shared machinery of {@link APIKeyQuery}, {@link APIKeyHeader} and {@link APIKeyCookie}. */
export abstract class APIKey<TAuth = unknown> extends CredentialAuthenticator<string, TAuth> {
  /** Name of the query parameter, header or cookie carrying the key. */
  readonly paramName: string;
  /** Where the key travels. */
  abstract readonly in: APIKeyLocation;
  readonly #hook: KeyHook<TAuth> | undefined;
  readonly #keys: StaticCredentials<TAuth> | undefined;
  readonly #maxLength: number;
  readonly #description: string | undefined;

  constructor(kind: 'Query' | 'Header' | 'Cookie', options: APIKeyOptions<TAuth>) {
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

  /** Finds the raw key in its transport. */
  protected abstract find(request: RequestView): Extraction<string>;

  protected override extract(request: RequestView): Extraction<string> {
    const found = this.find(request);
    if (found.state === 'present' && found.credential.length > this.#maxLength) return REJECTED;
    return found;
  }

  protected override invoke(request: AuthRequest, key: string): Awaitable<TAuth | Nothing> {
    return this.authenticate(request, key);
  }
}
