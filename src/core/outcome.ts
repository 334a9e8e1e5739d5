/** What a hook returns to say "not this caller": `undefined`, `null` or `false`. */
export type Nothing = undefined | null | false;

/** A value or a promise of it; hooks may be sync or async. */
export type Awaitable<T> = T | PromiseLike<T>;

/**
 * A hook accepts when its (awaited) result is anything but `undefined`, `null` or `false`.
 * Deliberately narrower than truthiness: a user id `0` or an empty list is a real value.
 */
export function isAccepted<T>(value: T | Nothing): value is T {
  return value !== undefined && value !== null && value !== false;
}

/** Whether a hook's result must be awaited: anything with a `then` method is. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** The credential was not there at all; the hook was not called. */
export interface Absent {
  readonly state: 'absent';
}
/** A credential was presented and refused (malformed, too long, or the hook returned nothing). */
export interface Rejected {
  readonly state: 'rejected';
  /**
   * Why, for a scheme whose challenge names its reason (`invalid_dpop_proof`, RFC 9449 §7.1);
   * left out, the scheme's usual refusal (`invalid_token` for Bearer). See {@link refusal}.
   */
  readonly error?: string;
  /** Headers the 401 carries beside its challenges (a `dpop-nonce`), names in lower case. */
  readonly headers?: Readonly<Record<string, string>>;
}
/** The credential was given more than once; ambiguity never picks a winner (400). */
export interface Ambiguous {
  readonly state: 'ambiguous';
}
/** The hook accepted; `value` becomes `request.auth`. */
export interface Accepted<T> {
  readonly state: 'accepted';
  readonly value: T;
  /** For cookie-based credentials: what a CSRF token must be bound to (the session id, the key). */
  readonly csrfBinding?: string;
}

/** The verdict of one authenticator on one request. */
export type Outcome<T> = Absent | Rejected | Ambiguous | Accepted<T>;

/** Shared verdicts, so that refusing a credential allocates nothing. */
export const ABSENT: Absent = Object.freeze({ state: 'absent' });
export const REJECTED: Rejected = Object.freeze({ state: 'rejected' });
export const AMBIGUOUS: Ambiguous = Object.freeze({ state: 'ambiguous' });

/**
 * A refusal naming its reason, and headers the 401 must carry for the client to retry (a new
 * DPoP nonce): the authenticator's challenge then names `error` (see `Authenticator#challenge`).
 * Make the ones without headers once: refusing then allocates nothing either.
 *
 * @example const INVALID_PROOF = refusal('invalid_dpop_proof');
 */
export function refusal(error: string, headers?: Readonly<Record<string, string>>): Rejected {
  if (headers === undefined) return Object.freeze({ state: 'rejected', error });
  return Object.freeze({ state: 'rejected', error, headers: Object.freeze({ ...headers }) });
}

/** What an extractor found in the request. */
export type Extraction<C> =
  Absent | Rejected | Ambiguous | { readonly state: 'present'; readonly credential: C };

/** What was found, but a present credential longer than `maxLength` characters is rejected. */
export function withinLength(found: Extraction<string>, maxLength: number): Extraction<string> {
  return found.state === 'present' && found.credential.length > maxLength ? REJECTED : found;
}

/**
 * The verdict on what a hook returned: accepted with its value (and, for a cookie credential, the
 * value a CSRF token must be bound to) or rejected. A synchronous result is judged at once, so a
 * synchronous hook costs no promise.
 */
export function judgeHook<T>(
  result: Awaitable<T | Nothing>,
  csrfBinding?: string,
): Outcome<T> | Promise<Outcome<T>> {
  if (!isPromiseLike(result)) return judge(result, csrfBinding);
  return Promise.resolve(result).then((value) => judge(value, csrfBinding));
}

function judge<T>(value: T | Nothing, csrfBinding: string | undefined): Outcome<T> {
  if (!isAccepted(value)) return REJECTED;
  return csrfBinding === undefined
    ? { state: 'accepted', value }
    : { state: 'accepted', value, csrfBinding };
}
