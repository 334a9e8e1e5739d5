/**
 * Header values as Node's HTTP parser presents them: names in lower case, the repeated lines of a
 * header joined with ", " (with "; " for `cookie`), or all but the first dropped for the headers
 * Node drops them for (`authorization`, `user-agent`, …), or a list of lines.
 */
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * What an authenticator reads credentials from: the method, the request target as received, the
 * parsed headers and, where the adapter has them, the raw header lines (needed to see a repeated
 * `Authorization` line, which Node's parser silently drops). A Fastify request satisfies it as is.
 */
export interface RequestView {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderMap;
  readonly raw?: { readonly rawHeaders?: readonly string[] };
}

/**
 * Adapters register the request type their hooks receive by augmenting this interface, e.g.
 * `vouch/fastify` sets `request: FastifyRequest`. Without an adapter, hooks see a `RequestView`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

/** The request type passed to `authenticate` hooks. */
export type AuthRequest = Register extends { request: infer R } ? R : RequestView;
