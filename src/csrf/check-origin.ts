import { ConfigurationError } from '../core/errors.js';
import type { HeaderMap, RequestView } from '../core/request.js';
import { singleHeader } from '../internal/read-once.js';

const SAFE_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Checks configured trusted origins and returns them normalised (`https://Example.com:443/` →
 * `https://example.com`). Throws {@link ConfigurationError} naming the first entry that is not a
 * bare http(s) origin, such as one with a path, a query or credentials.
 *
 * @example normalizeOrigins(['https://app.example.com', 'http://localhost:3000'])
 */
export function normalizeOrigins(list: readonly string[]): readonly string[] {
  if (!Array.isArray(list)) {
    throw new ConfigurationError('CSRF trusted origins must be a list of origins');
  }
  const origins: string[] = [];
  for (const entry of list as readonly unknown[]) {
    const origin = configuredOrigin(entry);
    if (origin === undefined) {
      throw new ConfigurationError(
        `CSRF trusted origin ${describe(entry)} is not an http(s) origin ` +
          '(scheme://host[:port], nothing after it)',
      );
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

/**
 * Whether a request comes from a trusted origin: `Sec-Fetch-Site` must be `same-origin` or
 * `none` when present; otherwise `Origin` (or, without it, the origin of `Referer`) must be one of
 * `trustedOrigins`. A repeated header fails, and `Host`/`X-Forwarded-Host` are never consulted.
 * Entries of `trustedOrigins` that are not bare origins never match (see {@link normalizeOrigins}).
 *
 * @example isTrustedOrigin(request.headers, ['https://app.example.com'])
 */
export function isTrustedOrigin(headers: HeaderMap, trustedOrigins: readonly string[]): boolean {
  const trusted = new Set<string>();
  for (const entry of trustedOrigins) {
    const origin = configuredOrigin(entry);
    if (origin !== undefined) trusted.add(origin);
  }
  return hasTrustedOrigin({ method: '', url: '', headers }, trusted);
}

/**
 * {@link isTrustedOrigin} over origins already normalised; the raw header lines, when the request
 * has them, also reveal a repeated `Referer`, of which Node's parser keeps only the first.
 */
export function hasTrustedOrigin(request: RequestView, trusted: ReadonlySet<string>): boolean {
  const site = singleHeader(request, 'sec-fetch-site', 'Sec-Fetch-Site');
  if (site.state === 'present') return SAFE_FETCH_SITES.has(site.credential);
  if (site.state !== 'absent') return false;
  const origin = singleHeader(request, 'origin', 'Origin');
  if (origin.state === 'present') return isListed(origin.credential, trusted);
  if (origin.state !== 'absent') return false;
  const referer = singleHeader(request, 'referer', 'Referer');
  return referer.state === 'present' && isListed(referer.credential, trusted);
}

function describe(entry: unknown): string {
  return typeof entry === 'string' ? JSON.stringify(entry) : `of type ${typeof entry}`;
}

function isListed(value: string, trusted: ReadonlySet<string>): boolean {
  const url = parseHttpUrl(value);
  return url !== undefined && trusted.has(url.origin);
}

function configuredOrigin(entry: unknown): string | undefined {
  if (typeof entry !== 'string' || /[?#]/.test(entry)) return undefined;
  const url = parseHttpUrl(entry);
  if (url === undefined || url.pathname !== '/' || url.username !== '' || url.password !== '') {
    return undefined;
  }
  return url.origin;
}

// `Origin: null` and relative references do not parse; other schemes (file:, blob:) are no origin
// a browser would send for a page of this service.
function parseHttpUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}
