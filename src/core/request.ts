/**
 * Header values as Node's HTTP parser presents them: names in lower case, the repeated lines of a
 * header joined with ", " (with "; " for `cookie`), or all but the first dropped for the headers
 * Node drops them for (`authorization`, `user-agent`, …), or a list of lines.
 */
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * What an authenticator reads credentials from: the method, the request target as received, the
 * parsed headers and, where the adapter has them, the raw header lines. Headers that must appear
 * once (`Authorization`, an API-key header, the CSRF and fetch-metadata headers) are read from
 * the raw lines when there are some: a repeated line, which Node's parser drops or joins, is seen,
 * and Node never has to build its parsed headers object for them. A hook that rewrites
 * `request.headers` before vouch runs therefore changes nothing vouch reads. A Fastify request
 * satisfies this interface as is.
 */
export interface RequestView {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderMap;
  readonly raw?: { readonly rawHeaders?: readonly string[] };
  /**
   * The connection the request came on, where the engine has one: who sent it (a proxy, when
   * there is one) and, for TLS ended in this process, the client's certificate.
   */
  readonly socket?: ConnectionView | undefined;
}

/** A request's connection, as Node's `net.Socket` and `tls.TLSSocket` present it. */
export interface ConnectionView {
  /** The peer's address: the client's, or the proxy's in front of it. */
  readonly remoteAddress?: string | undefined;
  /** `true` on a TLS connection ended in this process. */
  readonly encrypted?: boolean;
  /** On TLS: whether the client's certificate was verified against the server's `ca`. */
  readonly authorized?: boolean;
  /** On TLS: the client's certificate (its DER in `raw`), when it sent one. */
  getPeerX509Certificate?(): { readonly raw: Uint8Array } | undefined;
}

/**
 * Adapters register the request type their hooks receive by augmenting this interface, e.g.
 * `vouch/fastify` sets `request: FastifyRequest`. Without an adapter, hooks see a `RequestView`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

/** The request type passed to `authenticate` hooks. */
export type AuthRequest = Register extends { request: infer R } ? R : RequestView;
