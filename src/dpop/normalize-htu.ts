// The `htu` of a DPoP proof and the URL of the request it came with, each normalised before they
// are compared (RFC 9449 §4.3 (9)): syntax-based and scheme-based normalisation (RFC 3986 §6.2.2,
// §6.2.3).

// RFC 3986 §2.3: the characters a percent-encoding of stands for the character itself.
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const PERCENT_ENCODED = /%[0-9A-Fa-f]{2}/g;

/**
 * An `http` or `https` URL normalised for comparison: scheme and host in lower case, the default
 * port dropped, dot segments removed, an empty path made `/` (what the URL standard does), and
 * percent-encodings of unreserved characters decoded, the others in upper case (RFC 3986
 * §6.2.2.1, §6.2.2.2). `undefined` for anything else: not an absolute http(s) URL, one with
 * credentials, or one with a query or fragment, which an `htu` never has (RFC 9449 §4.2).
 * Never throws.
 *
 * @example normalizeHtu('HTTPS://API.example:443/a/./b/%7euser') // 'https://api.example/a/b/~user'
 */
export function normalizeHtu(value: string): string | undefined {
  // Even an empty query or fragment: `?` and `#` have no place in an htu.
  if (value.includes('?') || value.includes('#') || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  const path = url.pathname.replace(PERCENT_ENCODED, (encoded) => {
    const character = String.fromCharCode(parseInt(encoded.slice(1), 16));
    return UNRESERVED.test(character) ? character : encoded.toUpperCase();
  });
  return `${url.protocol}//${url.host}${path}`;
}
