import { ABSENT, AMBIGUOUS, type Extraction } from '../core/outcome.js';
import type { HeaderMap } from '../core/request.js';

/**
 * Reads one cookie from the `Cookie` header(s). A name sent twice (say, by a cookie planted
 * for another path) is ambiguous rather than first-wins. Values are percent-decoded when they
 * decode cleanly and kept as sent otherwise, so it never throws.
 */
export function readCookie(headers: HeaderMap, name: string): Extraction<string> {
  const header = headers.cookie;
  if (header === undefined) return ABSENT;
  const text = typeof header === 'string' ? header : header.join('; ');
  let found: string | undefined;
  let count = 0;
  for (const pair of text.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    count++;
    found = pair.slice(eq + 1).trim();
  }
  if (count > 1) return AMBIGUOUS;
  if (found === undefined) return ABSENT;
  const value = unquote(found);
  return value === '' ? ABSENT : { state: 'present', credential: decode(value) };
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

function decode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
