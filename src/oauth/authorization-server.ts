import { wholeNumber } from '../core/configuration-checks.js';
import { ConfigurationError, StoreUnavailableError } from '../core/errors.js';
import { absoluteUrl } from './protected-resource.js';

/** RFC 8414 §2 metadata of an authorization server: the fields vouch reads, the rest as sent. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly [field: string]: unknown;
}

/** Options of {@link authorizationServer}, in milliseconds. */
export interface AuthorizationServerOptions {
  /** How long discovery may take, both documents included (default 5000); beyond it, 503. */
  readonly timeout?: number;
  /**
   * How long after a failed discovery every request answers 503 at once, before discovery is
   * tried again (default 5000).
   */
  readonly cooldown?: number;
}

/** The URL fields of the metadata that vouch dials: they must be URLs it may dial. */
const ENDPOINTS = ['jwks_uri', 'introspection_endpoint'] as const;

/**
 * An authorization server known by its issuer identifier, whose metadata is discovered when first
 * needed: RFC 8414 metadata (the well-known path inserted before the issuer's path), or, when the
 * server does not serve it there, OpenID Connect Discovery (appended to the issuer). A document
 * is used only when its `issuer` is exactly the one asked (RFC 8414 §3.3), so that a server cannot
 * speak for another.
 *
 * The metadata is fetched once and kept; concurrent callers share the fetch. A discovery that
 * fails (the server down or slow, a status other than 200, no JSON object, the wrong issuer, an
 * endpoint that is not an `https` URL) rejects with a `StoreUnavailableError` (503): a request
 * needing the server cannot be decided. For `cooldown` after a failure every caller gets that
 * answer at once; the next caller after it tries again.
 *
 * @example
 * const login = authorizationServer('https://login.example.com');
 * const { jwks_uri } = await login.metadata();
 */
export class AuthorizationServer {
  /** The issuer identifier, as configured: the one its metadata and tokens must name. */
  readonly issuer: string;
  readonly #timeout: number;
  readonly #cooldown: number;
  #metadata: AuthorizationServerMetadata | undefined;
  #pending: Promise<AuthorizationServerMetadata> | undefined;
  #failure: { readonly at: number; readonly error: StoreUnavailableError } | undefined;

  constructor(issuer: string, options: AuthorizationServerOptions = {}) {
    this.issuer = issuerIdentifier(issuer);
    this.#timeout = milliseconds(options.timeout, 'timeout');
    this.#cooldown = milliseconds(options.cooldown, 'cooldown');
  }

  /** The server's metadata, discovered once; rejects with a `StoreUnavailableError` (503). */
  metadata(): Promise<AuthorizationServerMetadata> {
    if (this.#metadata !== undefined) return Promise.resolve(this.#metadata);
    if (this.#pending !== undefined) return this.#pending;
    const failure = this.#failure;
    const wait = failure === undefined ? 0 : failure.at + this.#cooldown - Date.now();
    if (failure !== undefined && wait > 0) {
      return Promise.reject(
        new StoreUnavailableError(failure.error.message, {
          cause: failure.error.cause,
          retryAfter: Math.ceil(wait / 1000),
        }),
      );
    }
    this.#pending = this.#discover().then(
      (metadata) => {
        this.#metadata = metadata;
        this.#pending = undefined;
        this.#failure = undefined;
        return metadata;
      },
      (cause: unknown) => {
        // What #discover throws, fetch's errors included, is an Error.
        const error = new StoreUnavailableError(
          `authorization server ${this.issuer}: ${(cause as Error).message}`,
          { cause, retryAfter: Math.max(1, Math.ceil(this.#cooldown / 1000)) },
        );
        this.#failure = { at: Date.now(), error };
        this.#pending = undefined;
        throw error;
      },
    );
    return this.#pending;
  }

  async #discover(): Promise<AuthorizationServerMetadata> {
    const signal = AbortSignal.timeout(this.#timeout);
    const [rfc8414, openid] = metadataUrls(this.issuer);
    // A server that answers, but not with a document there, may still serve the OpenID one; a
    // server that does not answer is not asked twice.
    const document =
      (await fetchDocument(rfc8414, signal)) ?? (await fetchDocument(openid, signal));
    if (document === undefined) {
      throw new Error(`no metadata at ${rfc8414} nor at ${openid}`);
    }
    if (document['issuer'] !== this.issuer) {
      throw new Error(
        `its metadata names issuer ${JSON.stringify(document['issuer'])} (RFC 8414 §3.3)`,
      );
    }
    for (const field of ENDPOINTS) {
      const value = document[field];
      if (value !== undefined && !dialable(value)) {
        throw new Error(`its metadata's ${field} is not an https URL: ${JSON.stringify(value)}`);
      }
    }
    return document as AuthorizationServerMetadata;
  }
}

/**
 * An authorization server known by its issuer identifier; see {@link AuthorizationServer}.
 * Throws a `ConfigurationError` unless `issuer` is an `https` URL (`http` on a loopback host)
 * without query or fragment (RFC 8414 §2).
 */
export function authorizationServer(
  issuer: string,
  options?: AuthorizationServerOptions,
): AuthorizationServer {
  return new AuthorizationServer(issuer, options);
}

/**
 * Where the metadata of `issuer` may be: RFC 8414 §3.1 (the well-known path inserted before the
 * issuer's path, without its terminating `/`), then OpenID Connect Discovery §4 (appended).
 */
export function metadataUrls(issuer: string): readonly [string, string] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** The JSON object served at `url` with status 200, or `undefined` for any other answer. */
async function fetchDocument(
  url: string,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(url, {
    signal,
    // A redirect is not a document there: never followed off the issuer's host.
    redirect: 'manual',
    headers: { accept: 'application/json' },
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    return undefined;
  }
  let document: unknown;
  try {
    document = JSON.parse(await response.text());
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
  return typeof document === 'object' && document !== null && !Array.isArray(document)
    ? (document as Record<string, unknown>)
    : undefined;
}

/** An `https` URL (`http` on a loopback host) without fragment, as a server's endpoint must be. */
function dialable(value: unknown): boolean {
  try {
    absoluteUrl(value, 'endpoint');
  } catch {
    return false;
  }
  return !(value as string).includes('#');
}

function issuerIdentifier(issuer: unknown): string {
  const what = 'authorization server issuer';
  absoluteUrl(issuer, what);
  if ((issuer as string).includes('?') || (issuer as string).includes('#')) {
    throw new ConfigurationError(
      `${what} must have no query or fragment (RFC 8414 §2): ${JSON.stringify(issuer)}`,
    );
  }
  return issuer as string;
}

function milliseconds(value: number | undefined, name: string): number {
  return wholeNumber(value, 5000, `authorization server ${name}`, {
    unit: 'milliseconds',
    positive: true,
  });
}
