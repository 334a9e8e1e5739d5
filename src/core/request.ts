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
}

/**
 * Adapters register the request type their hooks receive by augmenting this interface, e.g.
 * `vouch/fastify` sets `request: FastifyRequest`. Without an adapter, hooks see a `RequestView`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

/** The request type passed to `authenticate` hooks. */
export type AuthRequest = Register extends { request: infer R } ? R : RequestView;
