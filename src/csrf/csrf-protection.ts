import type { CsrfVerdict, CsrfVerifier } from '../core/authenticate.js';
import { ConfigurationError } from '../core/errors.js';
import type { RequestView } from '../core/request.js';
import { timingSafeEqual } from '../core/timing-safe-equal.js';
import { readCookie, singleHeader } from '../internal/read-once.js';
import { hasTrustedOrigin, normalizeOrigins } from './check-origin.js';
import { csrfCookie, type CsrfCookieOptions } from './csrf-cookie.js';
import { csrfKeys, issueWithKeys, verifyWithKeys, type CsrfSecret } from './csrf-token.js';

/** Options of {@link createCsrfVerifier}. */
export interface CsrfOptions {
  /** Signs and verifies tokens; with a list, the first signs and every one verifies. */
  readonly secret: CsrfSecret;
  /** The origins pages of this service are served from, e.g. `https://app.example.com`. */
  readonly trustedOrigins: readonly string[];
  /** The cookie holding the token (default `csrftoken`). */
  readonly cookieName?: string;
  /** The header the page sends the token back in, any case (default `X-CSRFToken`). */
  readonly headerName?: string;
  /** The form field carrying the token in form posts (default `csrfmiddlewaretoken`). */
  readonly formField?: string;
  /** Attributes of the cookie {@link CsrfProtection.issue} sets. */
  readonly cookie?: Omit<CsrfCookieOptions, 'name'>;
}

/** A token issued for a binding, and the `Set-Cookie` value that hands it to the browser. */
export interface IssuedCsrfToken {
  /** The token, also to be embedded in forms. */
  readonly token: string;
  /** The `Set-Cookie` header value. */
  readonly cookie: string;
}

/** A configured CSRF check, from {@link createCsrfVerifier}. */
export interface CsrfProtection {
  /**
   * The check for the engine's `csrf` option: `fail` when the origin or the cookie is wrong or
   * the header token does not match, `defer` for a form post without the header (finish it with
   * {@link CsrfProtection.verifyForm}), `pass` otherwise.
   */
  readonly verify: CsrfVerifier;
  /** Finishes a deferred check with the token from the parsed form body. */
  verifyForm(request: RequestView, body: unknown, binding: string): boolean;
  /**
   * The check for a sign-in (login CSRF: a page of another site signing the browser into the
   * attacker's account). There is no session and no token yet, so only where the request comes
   * from is checked, as for every unsafe request: `Sec-Fetch-Site`, else `Origin`, else `Referer`
   * must name a trusted origin. A request carrying none of them is no browser's (browsers send
   * `Origin` with every cross-site POST) and is allowed.
   */
  allowsSignIn(request: RequestView): boolean;
  /** Issues a token bound to `binding` with the cookie carrying it. */
  issue(binding: string): IssuedCsrfToken;
  /** The cookie's name. */
  readonly cookieName: string;
  /** The header's name, as configured. */
  readonly headerName: string;
  /** The form field's name. */
  readonly formField: string;
}

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Builds the double-submit CSRF check: the request must come from a trusted origin and carry, in
 * `X-CSRFToken` or the form field, the same token as the `csrftoken` cookie, signed with the
 * secret for this session or key. Throws {@link ConfigurationError} for a bad option at start-up;
 * the checks themselves never throw.
 *
 * @example
 * const csrf = createCsrfVerifier({ secret, trustedOrigins: ['https://app.example.com'] });
 * await authenticate(requirements, request, { realm: 'api', csrf: csrf.verify });
 */
export function createCsrfVerifier(options: CsrfOptions): CsrfProtection {
  const keys = csrfKeys(options.secret);
  const trusted: ReadonlySet<string> = new Set(normalizeOrigins(options.trustedOrigins));
  const cookieName = options.cookieName ?? 'csrftoken';
  const headerName = options.headerName ?? 'X-CSRFToken';
  const formField = options.formField ?? 'csrfmiddlewaretoken';
  if (!HEADER_NAME.test(headerName)) {
    throw new ConfigurationError(`CSRF header name ${JSON.stringify(headerName)} is not a token`);
  }
  if (formField === '') throw new ConfigurationError('CSRF form field name is empty');
  const cookieOptions: CsrfCookieOptions = { ...options.cookie, name: cookieName };
  // Serialising once now turns a bad cookie name, path or domain into a start-up error.
  csrfCookie('', cookieOptions);
  const headerKey = headerName.toLowerCase();

  // The origin comes first: a cross-site request fails whatever tokens it carries.
  function trustedCookieToken(request: RequestView): string | undefined {
    if (!hasTrustedOrigin(request, trusted)) return undefined;
    const cookie = readCookie(request.headers, cookieName);
    return cookie.state === 'present' ? cookie.credential : undefined;
  }

  function matches(presented: string, expected: string, binding: string): boolean {
    return timingSafeEqual(presented, expected) && verifyWithKeys(keys, expected, binding);
  }

  // A token must be bound to something (a session id, a key): an unbound token would be valid
  // for every credential that names no binding, so an empty binding always fails.
  function verify(request: RequestView, binding: string): CsrfVerdict {
    if (binding === '') return 'fail';
    const expected = trustedCookieToken(request);
    if (expected === undefined) return 'fail';
    const header = singleHeader(request, headerKey, headerName);
    if (header.state === 'present') {
      return matches(header.credential, expected, binding) ? 'pass' : 'fail';
    }
    if (header.state !== 'absent') return 'fail';
    return isForm(request) ? 'defer' : 'fail';
  }

  function verifyForm(request: RequestView, body: unknown, binding: string): boolean {
    if (binding === '') return false;
    const expected = trustedCookieToken(request);
    if (expected === undefined) return false;
    const presented = field(body, formField);
    return presented !== undefined && matches(presented, expected, binding);
  }

  return {
    verify,
    verifyForm,
    allowsSignIn: (request) => !saysWhereFrom(request) || hasTrustedOrigin(request, trusted),
    issue(binding) {
      if (binding === '') {
        throw new ConfigurationError('a CSRF token must be bound to a session id or key, not ""');
      }
      const token = issueWithKeys(keys, binding);
      return { token, cookie: csrfCookie(token, cookieOptions) };
    },
    cookieName,
    headerName,
    formField,
  };
}

/** Whether the request carries any header by which browsers say where a request comes from. */
function saysWhereFrom(request: RequestView): boolean {
  const { headers } = request;
  return (
    headers['sec-fetch-site'] !== undefined ||
    headers.origin !== undefined ||
    headers.referer !== undefined
  );
}

function isForm(request: RequestView): boolean {
  const type = singleHeader(request, 'content-type', 'Content-Type');
  if (type.state !== 'present') return false;
  const value = type.credential;
  const semicolon = value.indexOf(';');
  const essence = semicolon === -1 ? value : value.slice(0, semicolon);
  return FORM_TYPES.has(essence.trim().toLowerCase());
}

// Only an own string property counts: a field sent twice arrives as an array, which is ambiguous,
// and an inherited one (`toString`, `__proto__`) was never sent at all.
function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  try {
    if (!Object.hasOwn(body, name)) return undefined;
    const value: unknown = (body as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  } catch {
    // A proxy or getter in a hand-built body may throw; that is no token.
    return undefined;
  }
}
