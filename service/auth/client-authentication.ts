import { isScheme, parseAuthorization, type RequestView } from 'vouch';

/**
 * The client authentication a token request presents (RFC 6749 §2.3): none, HTTP Basic, fields
 * of the body (`client_id`, `client_secret`, RFC 7523's `client_assertion`), or `ambiguous` when
 * `Authorization` is sent more than once.
 */
export type PresentedClient = 'none' | 'basic' | 'body' | 'ambiguous';

// What Swagger UI's Authorize sends when its client id and secret are left empty, as they are on
// the service's docs page: `Basic base64(":")`, no client at all.
const EMPTY_BASIC_PAIR = 'Og==';
const CLIENT_FIELDS = ['client_id', 'client_secret', 'client_assertion'] as const;

/**
 * Which client authentication `request` presents, its parsed `body` included. Another scheme than
 * Basic (a Bearer token sent by habit) and empty client fields, as some clients send, present none.
 */
export function presentedClient(request: RequestView, body: unknown): PresentedClient {
  const lines = authorizationLines(request);
  if (lines.length > 1) return 'ambiguous';
  const parts = lines[0] === undefined ? undefined : parseAuthorization(lines[0]);
  if (parts !== undefined && isScheme(parts.scheme, 'basic')) {
    if (parts.credentials !== EMPTY_BASIC_PAIR) return 'basic';
  }
  if (typeof body !== 'object' || body === null) return 'none';
  const fields = body as Record<string, unknown>;
  return CLIENT_FIELDS.some((name) => fields[name] !== undefined && fields[name] !== '')
    ? 'body'
    : 'none';
}

/** Every `Authorization` line, from the raw lines where there are some: Node keeps only the first. */
function authorizationLines(request: RequestView): readonly string[] {
  const raw = request.raw?.rawHeaders;
  if (raw === undefined) {
    const value = request.headers.authorization;
    return value === undefined ? [] : typeof value === 'string' ? [value] : value;
  }
  const lines: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [name, value] = [raw[i], raw[i + 1]];
    if (name?.toLowerCase() === 'authorization' && value !== undefined) lines.push(value);
  }
  return lines;
}
