// What the service's routes share in their descriptions: the tags they are grouped under on the
// docs page, the shape of every error body, and the answers that say when to try again.

/** The docs page's groups, in the order it shows them. */
export const TAGS = [
  { name: 'examples', description: 'One operation for each kind of authentication' },
  { name: 'sign-in', description: 'Tokens and sessions from a username and password' },
  { name: 'events', description: 'A router with an authentication of its own (X-API-Key)' },
  { name: 'admin', description: 'Administration: the admin scope, by Bearer token or Basic' },
  { name: 'service', description: 'Health and version, without authentication' },
] as const;

/** A tag's name. */
export type Tag = (typeof TAGS)[number]['name'];

/** An error reply: `{ "detail": … }`, described. */
export function detailResponse(description: string) {
  return {
    description,
    type: 'object',
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  } as const;
}

/** `Retry-After`, as every 429 and 503 of the service carries it: whole seconds. */
export const retryAfter = {
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    type: 'integer',
    minimum: 0,
  },
} as const;

/** An error reply that says when to try again: `{ "detail": … }` with `Retry-After`. */
export function retryLaterResponse(description: string) {
  return { ...detailResponse(description), headers: retryAfter } as const;
}

/**
 * The answer of an operation when the database does not answer (an outage, a lock held past the
 * timeout): whatever reads it, a credential's lookup or the operation itself.
 */
export const storeUnavailable = retryLaterResponse(
  'The database does not answer; Retry-After says when to try again',
);

/** The answer of a sign-in that failed too often. */
export const tooManyAttempts = retryLaterResponse(
  'Too many failed sign-ins from this address or for this username; Retry-After says when to try again',
);

/** The answer of a sign-in when every password check is taken. */
export const checksBusy = retryLaterResponse(
  'Too many password checks under way, or the database does not answer; Retry-After says when to try again',
);

/** The answer of a sign-in from a page of another site (login CSRF). */
export const crossSiteSignIn = detailResponse(
  'CSRF check Failed: a sign-in from a page of another site (Origin, Sec-Fetch-Site or Referer)',
);

/** The answer of a sign-in whose body is larger than the sign-in routes take. */
export const signInBodyTooLarge = detailResponse('The body is larger than 16 KiB');
