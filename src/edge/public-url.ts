import { ConfigurationError } from '../core/errors.js';
import type { RequestView } from '../core/request.js';
import { singleHeaderValue } from '../internal/read-once.js';

// A host as a proxy forwards it: a name or IPv4 address, or an IPv6 literal, and a port maybe.
// Anything else (userinfo, a path, a list) makes no origin.
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** A configured public origin, normalised (`https://api.example`); a ConfigurationError else. */
export function publicOrigin(value: string | URL): string {
  const given = String(value);
  const url = URL.canParse(given) ? new URL(given) : undefined;
  if (
    (url?.protocol !== 'https:' && url?.protocol !== 'http:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new ConfigurationError(
      `edge publicOrigin ${JSON.stringify(given)} must be an http(s) origin, e.g. https://api.example.com, with no path, query or credentials`,
    );
  }
  return url.origin;
}

/**
 * The origin a trusted proxy says the client asked for: `X-Forwarded-Proto` (`http` or `https`)
 * and `X-Forwarded-Host`, each one line with one value; `undefined` when either is missing,
 * repeated, a list or malformed. `Host` is not read: behind a proxy it names whatever the proxy
 * dialled (nginx's default is the upstream's address), and a wrong URL must not pass for right.
 */
export function forwardedOrigin(request: RequestView): string | undefined {
  const proto = singleHeaderValue(request, 'x-forwarded-proto', 'X-Forwarded-Proto');
  const host = singleHeaderValue(request, 'x-forwarded-host', 'X-Forwarded-Host');
  if (typeof proto !== 'string' || typeof host !== 'string' || !HOST.test(host)) return undefined;
  const scheme = proto.toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') return undefined;
  const origin = `${scheme}://${host}`;
  return URL.canParse(origin) ? origin : undefined;
}

/**
 * `origin` and the path of a request target (`/a/b?q` in origin form, or the path of an absolute
 * form), without query and fragment, as the WHATWG URL parser serialises them: scheme and host
 * in lower case, a default port left out, dot segments resolved. `undefined` for a target with
 * no path (`*`, authority form).
 */
export function joinPath(origin: string, target: string): string | undefined {
  let path: string;
  if (target.startsWith('/')) {
    const end = target.search(/[?#]/);
    path = end === -1 ? target : target.slice(0, end);
  } else {
    const absolute = URL.canParse(target) ? new URL(target) : undefined;
    if (absolute?.protocol !== 'https:' && absolute?.protocol !== 'http:') return undefined;
    path = absolute.pathname;
  }
  // The path starts with '/', so it cannot reach into the origin (`//evil` stays a path).
  const url = new URL(origin + path);
  return url.origin + url.pathname;
}
