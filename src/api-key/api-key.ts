import { DEFAULT_MAX_CREDENTIAL_LENGTH, quote } from '../core/authenticator.js';
import type { AuthenticatorOptions } from '../core/authenticator.js';
import { CredentialAuthenticator } from '../core/credential-authenticator.js';
import { withinLength } from '../core/outcome.js';
import type { Awaitable, Extraction, Nothing } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { schemeNamePart } from '../core/configuration-checks.js';
import { secretsOrHook, type StaticEntries } from '../internal/static-credentials.js';

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
export abstract class APIKey<TAuth = unknown> extends CredentialAuthenticator<string, TAuth> {
  /** Name of the query parameter, header or cookie carrying the key. */
  readonly paramName: string;
  /** Where the key travels. */
  abstract readonly in: APIKeyLocation;
  readonly #read: KeyReader;
  readonly #check: KeyHook<TAuth>;
  readonly #maxLength: number;
  readonly #description: string | undefined;

  constructor(
    kind: 'Query' | 'Header' | 'Cookie',
    options: APIKeyOptions<TAuth>,
    reader: (paramName: string) => KeyReader,
  ) {
    const paramName = options.paramName ?? 'key';
    super(`apiKey${kind}_${schemeNamePart(paramName)}`, options);
    this.paramName = paramName;
    this.#read = reader(paramName);
    this.#maxLength = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
    this.#check = secretsOrHook(`APIKey${kind}`, 'keys', {
      hook: options.authenticate,
      secrets: options.keys,
      overridden: this.authenticate !== APIKey.prototype.authenticate,
      maxLength: this.#maxLength,
    });
    this.#description = options.description;
  }

  /** Resolves a key to its owner; returns `undefined`, `null` or `false` to reject. */
  authenticate(request: AuthRequest, key: string): Awaitable<TAuth | Nothing> {
    return this.#check(request, key);
  }

  /** The key, read from its transport, of at most `maxLength` characters. */
  protected override extract(request: RequestView): Extraction<string> {
    return withinLength(this.#read(request), this.#maxLength);
  }

  protected override invoke(request: AuthRequest, key: string): Awaitable<TAuth | Nothing> {
    return this.authenticate(request, key);
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

  /** A key is no `Authorization` credential: shared caches would not keep replies to themselves. */
  override get privateResponses(): boolean {
    return true;
  }
}
